// An empty script: compiled by the same Bun, its executable is the size of the runtime alone (scripts/bench-startup.ts).
export {};
