// Tool modules are plain functions: tested without a server. (*.test.ts files are never scanned for tools.)
import { expect, test } from "bun:test";
import { arithmetic } from "./arith.ts";

test("add and divide", async () => {
  const [add, divide] = arithmetic;
  expect(await add!({ a: 2, b: 3 })).toBe(5);
  await expect(divide!({ a: 1, b: 0 })).rejects.toThrow("division by zero");
});
