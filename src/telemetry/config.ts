/** @module Reads the standard OpenTelemetry environment variables that decide whether and how traces are exported. */

/** An exporter this server can install from the environment. */
export type TraceExporterName = "otlp" | "console";

/** The OTLP wire protocols supported over HTTP. */
export type OtlpProtocol = "http/protobuf" | "http/json";

/** What the environment asks for. */
export interface TracingEnv {
  /** Exporters to install; empty: export nothing (tracing stays off unless a provider is registered). */
  readonly exporters: readonly TraceExporterName[];
  /** OTLP protocol (default `http/protobuf`, as the OpenTelemetry specification says). */
  readonly protocol: OtlpProtocol;
  /** `OTEL_SDK_DISABLED=true`: tracing is off whatever else is set. */
  readonly disabled: boolean;
  /** One line each, for stderr: values that were ignored and why. */
  readonly warnings: readonly string[];
}

/**
 * Interprets `OTEL_SDK_DISABLED`, `OTEL_TRACES_EXPORTER`, `OTEL_EXPORTER_OTLP_ENDPOINT`,
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_EXPORTER_OTLP_PROTOCOL` and
 * `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` (OpenTelemetry specification, "Environment Variable
 * Specification"). `OTEL_TRACES_EXPORTER` is a comma-separated list of `otlp`, `console` and `none`;
 * when it is unset but an OTLP endpoint variable is set, the exporter is `otlp`. Endpoint, headers,
 * timeout, `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` are read by the SDK packages themselves.
 * @param env - the environment (default `process.env`).
 * @returns the exporters to install (empty when tracing is off) and warnings for ignored values.
 */
export function readTracingEnv(env: Record<string, string | undefined> = process.env): TracingEnv {
  const warnings: string[] = [];
  const disabled = (env.OTEL_SDK_DISABLED ?? "").trim().toLowerCase() === "true";
  const rawProtocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || "")
    .trim()
    .toLowerCase();
  let protocol: OtlpProtocol = "http/protobuf";
  if (rawProtocol === "http/json") protocol = "http/json";
  else if (rawProtocol !== "" && rawProtocol !== "http/protobuf") {
    warnings.push(
      `OTEL_EXPORTER_OTLP_PROTOCOL=${rawProtocol} is not supported (use http/protobuf or http/json); using http/protobuf`,
    );
  }
  const exporters: TraceExporterName[] = [];
  const list = (env.OTEL_TRACES_EXPORTER ?? "").trim();
  if (list === "") {
    if (env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) exporters.push("otlp");
  } else {
    for (const raw of list.split(",")) {
      const name = raw.trim().toLowerCase();
      if (name === "none") return { exporters: [], protocol, disabled, warnings };
      if (name === "otlp" || name === "console") {
        if (!exporters.includes(name)) exporters.push(name);
      } else if (name !== "") {
        warnings.push(`OTEL_TRACES_EXPORTER: unknown exporter "${name}" ignored (use otlp, console or none)`);
      }
    }
  }
  return { exporters: disabled ? [] : exporters, protocol, disabled, warnings };
}
