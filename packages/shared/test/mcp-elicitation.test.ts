import { describe, expect, it } from "vitest";
import { applyElicitDefaults, elicitFields, elicitInitialForm, McpElicitationAnswer, prepareElicitAnswer } from "../src/index.js";

/** The requested schema of the conformance scenario `elicitation-sep1034-client-defaults`, plus enums and formats. */
const schema = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", default: "John Doe", minLength: 2 },
    age: { type: "integer", default: 30, minimum: 0, maximum: 150 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
    email: { type: "string", format: "email" },
    hero: { type: "string", oneOf: [{ const: "h1", title: "Superman" }, { const: "h2", title: "Batman" }] },
    pet: { type: "string", enum: ["p1", "p2"], enumNames: ["Cats", "Dogs"] },
    fish: { type: "array", minItems: 1, maxItems: 2, items: { anyOf: [{ const: "f1", title: "Tuna" }, { const: "f2", title: "Salmon" }, { const: "f3", title: "Trout" }] } },
    nested: { type: "object", properties: {} },
  },
  required: ["email", "hero"],
};

describe("elicitation forms (MCP-12)", () => {
  const { fields, unsupported } = elicitFields(schema);
  const byName = Object.fromEntries(fields.map((f) => [f.name, f]));

  it("reads the schema as fields: kinds, titled enums (oneOf, enumNames, anyOf items), required; nested objects are unsupported", () => {
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["name", "string", false], ["age", "integer", false], ["score", "number", false], ["status", "select", false], ["verified", "boolean", false],
      ["email", "string", true], ["hero", "select", true], ["pet", "select", false], ["fish", "multiselect", false],
    ]);
    expect(unsupported).toEqual(["nested"]);
    expect(byName.hero).toMatchObject({ options: [{ value: "h1", label: "Superman" }, { value: "h2", label: "Batman" }] });
    expect(byName.pet).toMatchObject({ options: [{ value: "p1", label: "Cats" }, { value: "p2", label: "Dogs" }] });
    expect(byName.fish).toMatchObject({ minItems: 1, maxItems: 2, options: [{ value: "f1", label: "Tuna" }, { value: "f2", label: "Salmon" }, { value: "f3", label: "Trout" }] });
    expect(elicitFields(null)).toEqual({ fields: [], unsupported: [] });
  });

  it("starts the form with the defaults and, accepting, fills empty fields with them (string, integer, number, enum, boolean)", () => {
    expect(elicitInitialForm(fields)).toEqual({ name: "John Doe", age: "30", score: "95.5", status: "active", verified: true });
    const r = prepareElicitAnswer(fields, { email: "a@b.co", hero: "h2", name: "", age: "  " });
    expect(r).toEqual({ ok: true, content: { name: "John Doe", age: 30, score: 95.5, status: "active", verified: true, email: "a@b.co", hero: "h2" } });
    expect(applyElicitDefaults(schema, { email: "x" })).toEqual({ name: "John Doe", age: 30, score: 95.5, status: "active", verified: true, email: "x" });
  });

  it("marks required fields and wrong values by field, in words", () => {
    expect(prepareElicitAnswer(fields, {})).toEqual({ ok: false, errors: { email: "Required", hero: "Required" } });
    const r = prepareElicitAnswer(fields, { email: "nope", hero: "h9", age: "2.5", score: "abc", name: "x", fish: ["f1", "f2", "f3"], status: "gone" });
    expect(r).toEqual({
      ok: false,
      errors: {
        email: "Enter an email address, like name@example.com", hero: "Choose one of the options", age: "Must be a whole number", score: "Must be a number",
        name: "At least 2 characters", fish: "Choose at most 2", status: "Choose one of the options",
      },
    });
    expect(prepareElicitAnswer(fields, { email: "a@b.co", hero: "h1", age: "151" })).toMatchObject({ ok: false, errors: { age: "Must be at most 150" } });
  });

  it("keeps multi-select choices (deduplicated) and booleans answered false", () => {
    const r = prepareElicitAnswer(fields, { email: "a@b.co", hero: "h1", fish: ["f2", "f2"], verified: false });
    expect(r.ok && r.content).toMatchObject({ fish: ["f2"], verified: false });
  });

  it("the answer schema refuses unknown actions and non-JSON-ish values", () => {
    expect(McpElicitationAnswer.safeParse({ id: "1", action: "accept", content: { a: 1, b: ["x"], c: true } }).success).toBe(true);
    expect(McpElicitationAnswer.safeParse({ id: "1", action: "maybe" }).success).toBe(false);
    expect(McpElicitationAnswer.safeParse({ id: "1", action: "accept", content: { a: { deep: 1 } } }).success).toBe(false);
    expect(McpElicitationAnswer.safeParse({ id: "1", action: "decline", content: {} }).success).toBe(false);
  });
});
