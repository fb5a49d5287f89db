import { describe, expect, it } from "vitest";
import { maskSecrets, redactUrl } from "../../../src/backend/http-redact.js";

describe("redactUrl", () => {
  it.each([
    ["https://a.example/v1/payers?lobs=x", "https://a.example/v1/payers?lobs=x"],
    [
      "https://s3.example/f.pdf?X-Amz-Signature=abc&X-Amz-Expires=900",
      "https://s3.example/f.pdf?X-Amz-Signature=***&X-Amz-Expires=900",
    ],
    [
      "https://s3.example/f.pdf?x-amz-credential=AK%2F1&a=1",
      "https://s3.example/f.pdf?x-amz-credential=***&a=1",
    ],
    [
      "http://h/files/a?variant=text&expires=1&signature=deadbeef",
      "http://h/files/a?variant=text&expires=1&signature=***",
    ],
    [
      "http://h/f?sig=1&token=2&access_token=3#frag",
      "http://h/f?sig=***&token=***&access_token=***#frag",
    ],
    ["/files/a?signature=ff", "/files/a?signature=***"],
    ["https://user:pass@h.example/v1", "https://***@h.example/v1"],
    ["https://h.example/v1?signature", "https://h.example/v1?signature"],
  ])("%s -> %s", (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });

  it("masks the given secrets anywhere, also URL-encoded", () => {
    expect(redactUrl("https://h/v1?q=my key/1&x=my%20key%2F1", ["my key/1"])).toBe(
      "https://h/v1?q=***&x=***",
    );
    expect(maskSecrets("no secret here", [undefined, ""])).toBe("no secret here");
  });

  it.each([
    // Long secrets: masked wherever they appear, even inside a word.
    ["x-abcdefgh-y", "abcdefgh", "x-***-y"],
    ["keyabcdefghkey", "abcdefgh", "key***key"],
    // Short ones: only where they stand alone, so messages and URLs stay readable.
    ["Invalid API key", "k", "Invalid API key"],
    ["x-api-key: k", "k", "x-api-key: ***"],
    [
      "GET http://127.0.0.1:8080/v1/payers?limit=1",
      "1",
      // The address keeps its digits; a value that is the whole key is still masked.
      "GET http://127.0.0.1:8080/v1/payers?limit=***",
    ],
    ["detail: bad key 'abc' sent", "abc", "detail: bad key '***' sent"],
    ["a+b a+bc", "a+b", "*** a+bc"],
    // A full stop ends a sentence; between letters or digits it joins a host name or a version.
    ["Invalid API key abc.", "abc", "Invalid API key ***."],
    ["key abc. Try again", "abc", "key ***. Try again"],
    ["GET http://abc.example/x", "abc", "GET http://abc.example/x"],
    ["v1.abc", "abc", "v1.abc"],
    ["host 10.0.0.1", "1", "host 10.0.0.1"],
  ])("%j with secret %j -> %j", (text, secret, shown) => {
    expect(maskSecrets(text, [secret])).toBe(shown);
  });
});
