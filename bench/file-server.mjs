#!/usr/bin/env node
// A scripted API for the download benchmark: answers the download-url endpoint with a link to
// a large file it serves itself. Prints its base URL on stdout once listening.
//
//   node bench/file-server.mjs [--size-mb 200] [--dir bench/out]
import {
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  statSync,
  writeSync,
} from "node:fs";
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";

const { values: opts } = parseArgs({
  options: {
    "size-mb": { type: "string", default: "200" },
    dir: { type: "string", default: "bench/out" },
  },
});
const size = Number(opts["size-mb"]) * 1024 * 1024;
const file = path.resolve(opts.dir, `download-${opts["size-mb"]}mb.bin`);

if (!existsSync(file) || statSync(file).size !== size) {
  mkdirSync(path.dirname(file), { recursive: true });
  // Incompressible-looking bytes (xorshift), written once and reused by later runs.
  const block = Buffer.alloc(1024 * 1024);
  let x = 2463534242;
  const fd = openSync(file, "w");
  for (let written = 0; written < size; written += block.length) {
    for (let i = 0; i < block.length; i += 4) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      block.writeUInt32LE(x >>> 0, i);
    }
    writeSync(fd, block, 0, Math.min(block.length, size - written));
  }
  closeSync(fd);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  const json = (status, body) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === "/health" || url.pathname === "/ready") return json(200, { status: "ok" });
  if (req.method === "GET" && url.pathname.endsWith("/download-url")) {
    const { port } = server.address();
    return json(200, {
      url: `http://127.0.0.1:${port}/files/big.pdf?sig=bench`,
      content_type: "application/pdf",
      filename: "BIG.pdf",
    });
  }
  if (req.method === "GET" && url.pathname === "/files/big.pdf") {
    res.writeHead(200, { "content-type": "application/pdf", "content-length": String(size) });
    createReadStream(file, { highWaterMark: 1 << 20 }).pipe(res);
    return;
  }
  json(404, { detail: "Not Found" });
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
