/**
 * A small .tar.gz writer and reader (POSIX ustar, with a PAX record for names ustar cannot hold), enough
 * for SIA's backup archives: regular files and folders (a folder is an entry of its own, so an empty one
 * and its mode survive). No tar package is installed and the format is short; the
 * archives stay readable by `tar -xzf` for a person who wants to look inside.
 */
import { createHash } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import { createGzip, gunzipSync } from "node:zlib";

const BLOCK = 512;

function octal(value: number, width: number) {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

type EntryType = "0" | "5" | "x";

function header(name: string, size: number, type: EntryType, mtime: number, mode = 0o644) {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, "utf8");
  block.write(octal(mode, 8), 100, "ascii");
  block.write(octal(0, 8), 108, "ascii");
  block.write(octal(0, 8), 116, "ascii");
  block.write(octal(size, 12), 124, "ascii");
  block.write(octal(mtime, 12), 136, "ascii");
  block.write("        ", 148, "ascii");
  block.write(type, 156, "ascii");
  block.write("ustar\u000000", 257, "ascii");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return block;
}

/** A name that is not short plain ASCII goes in a PAX record before its header (any length, UTF-8). */
function headers(name: string, size: number, mtime: number, type: "0" | "5" = "0", mode = 0o644): Buffer[] {
  if (/^[\x20-\x7e]{1,99}$/.test(name)) return [header(name, size, type, mtime, mode)];
  const body = ` path=${name}\n`;
  const bytes = Buffer.byteLength(body);
  // The record's length counts its own digits.
  let length = bytes + 1;
  while (String(length).length + bytes !== length) length = String(length).length + bytes;
  const record = Buffer.from(`${length}${body}`, "utf8");
  return [
    header("PaxHeader", record.length, "x", mtime),
    record,
    padding(record.length),
    header("sia-entry", size, type, mtime, mode),
  ];
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

export interface WrittenEntry {
  path: string;
  size: number;
  sha256: string;
}

/** Writes a .tar.gz file entry by entry (a file is read in chunks, never whole into memory). */
export class TarGzWriter {
  private readonly gzip = createGzip();
  private readonly out: fs.WriteStream;
  private readonly done: Promise<unknown>;
  readonly entries: WrittenEntry[] = [];

  constructor(file: string) {
    this.out = fs.createWriteStream(file, { mode: 0o600 });
    this.gzip.pipe(this.out);
    this.done = once(this.out, "close");
  }

  private async write(chunk: Buffer) {
    if (!this.gzip.write(chunk)) await once(this.gzip, "drain");
  }

  async addBuffer(name: string, data: Buffer) {
    for (const part of headers(name, data.length, Math.floor(Date.now() / 1000))) await this.write(part);
    await this.write(data);
    await this.write(padding(data.length));
    this.entries.push({ path: name, size: data.length, sha256: createHash("sha256").update(data).digest("hex") });
  }

  /** A folder's entry (`name` without the trailing slash), with its permission bits. */
  async addFolder(name: string, folder: string) {
    const stat = fs.statSync(folder);
    for (const part of headers(`${name}/`, 0, Math.floor(stat.mtimeMs / 1000), "5", stat.mode & 0o7777)) await this.write(part);
  }

  async addFile(name: string, file: string) {
    const stat = fs.statSync(file);
    for (const part of headers(name, stat.size, Math.floor(stat.mtimeMs / 1000))) await this.write(part);
    const hash = createHash("sha256");
    let size = 0;
    for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
      // A file that grows while it is read is cut at the size its header announced.
      const piece = size + chunk.length > stat.size ? chunk.subarray(0, stat.size - size) : chunk;
      hash.update(piece);
      size += piece.length;
      await this.write(piece);
      if (size >= stat.size) break;
    }
    // A file that shrank meanwhile is padded to its announced size, so the archive stays readable.
    if (size < stat.size) {
      const rest = Buffer.alloc(stat.size - size);
      hash.update(rest);
      await this.write(rest);
    }
    await this.write(padding(stat.size));
    this.entries.push({ path: name, size: stat.size, sha256: hash.digest("hex") });
  }

  async close() {
    this.gzip.end(Buffer.alloc(BLOCK * 2));
    await this.done;
  }
}

export class TarFormatError extends Error {}

/** Every regular file of a .tar.gz (or plain .tar) held in memory, by path. */
export function readTarGz(data: Buffer): Map<string, Buffer> {
  return readTarEntries(data).files;
}

/** Regular files by path, and folders (path without the trailing slash) with their permission bits. */
export function readTarEntries(data: Buffer): { files: Map<string, Buffer>; folders: Map<string, number> } {
  let tar: Buffer;
  try {
    tar = data[0] === 0x1f && data[1] === 0x8b ? gunzipSync(data) : data;
  } catch (error) {
    throw new TarFormatError(`no es un archivo gzip válido (${(error as Error).message})`);
  }
  const files = new Map<string, Buffer>();
  const folders = new Map<string, number>();
  let offset = 0;
  let paxPath: string | undefined;
  while (offset + BLOCK <= tar.length) {
    const block = tar.subarray(offset, offset + BLOCK);
    if (block.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i];
    const declared = Number.parseInt(block.toString("ascii", 148, 156).replace(/\0.*$/, "").trim(), 8);
    if (sum !== declared) throw new TarFormatError(`encabezado dañado en la posición ${offset}`);
    const size = Number.parseInt(block.toString("ascii", 124, 136).replace(/\0.*$/, "").trim() || "0", 8);
    const type = block.toString("ascii", 156, 157);
    const prefix = block.toString("utf8", 345, 500).replace(/\0.*$/s, "");
    const short = block.toString("utf8", 0, 100).replace(/\0.*$/s, "");
    const body = tar.subarray(offset + BLOCK, offset + BLOCK + size);
    if (body.length !== size) throw new TarFormatError("el archivo está truncado");
    offset += BLOCK + size + ((BLOCK - (size % BLOCK)) % BLOCK);
    if (type === "x") {
      const match = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString("utf8"));
      paxPath = match?.[1];
      continue;
    }
    const name = paxPath ?? (prefix ? `${prefix}/${short}` : short);
    paxPath = undefined;
    if (type === "0" || type === "\0" || type === "") files.set(name, Buffer.from(body));
    else if (type === "5") {
      const mode = Number.parseInt(block.toString("ascii", 100, 108).replace(/\0.*$/, "").trim() || "755", 8);
      folders.set(name.replace(/\/+$/, ""), mode & 0o7777);
    }
  }
  return { files, folders };
}
