import { describe, expect, it } from "vitest";
import { takeToken } from "@/trpc/token";

describe("the start URL's token (SEC-1)", () => {
  it("takes a host token and gives back the same URL without it", () => {
    const taken = takeToken(new URL("http://127.0.0.1:3000/s/abc?tab=tools&token=Qm9vX3Rva2VuLWZvci10ZXN0aW5nLTEyMzQ1Ng#end"));
    expect(taken?.token).toBe("Qm9vX3Rva2VuLWZvci10ZXN0aW5nLTEyMzQ1Ng");
    expect(taken?.rest.toString()).toBe("http://127.0.0.1:3000/s/abc?tab=tools#end");
  });

  it("ignores a URL without a token, and a value that is not one (nothing is set then)", () => {
    expect(takeToken(new URL("http://127.0.0.1:3000/"))).toBeNull();
    expect(takeToken(new URL("http://127.0.0.1:3000/?token=short"))).toBeNull();
    expect(takeToken(new URL("http://127.0.0.1:3000/?token=a%3Bb%3Dc%20path%3D%2F0123456789"))).toBeNull();
    expect(takeToken(new URL(`http://127.0.0.1:3000/?token=${"x".repeat(300)}`))).toBeNull();
  });
});
