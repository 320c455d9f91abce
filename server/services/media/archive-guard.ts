import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { AppError } from '../../core/errors.ts';

/**
 * A zip (DOCX today; XLSX, PPTX, ODT or EPUB later) is opened only after every entry has been
 * measured: what its directory declares and what it really inflates to, summed over ALL entries
 * whatever their names (a reader follows relationships anywhere), inflated as a stream that stops
 * at the limit and keeps nothing. A few hundred kilobytes cannot then unpack to gigabytes in the
 * reader that comes next. docs/security.md#files-and-archives.
 */

/** All entries together may unpack to at most this much. */
export const MAX_ARCHIVE_UNPACKED_BYTES = 48 * 1024 * 1024;
/** More entries than any real document has. */
const MAX_ARCHIVE_ENTRIES = 5000;

type Entry = { name: string; method: number; compressed: number; declared: number; dataStart: number };

const refuse = (key: 'fileTooComplex' | 'fileUnreadable', fileName: string) => new AppError(Codes.UploadRefused, key, { name: fileName });

/** The end-of-central-directory record: 22 bytes plus a comment of up to 64 KiB at the end. */
function findDirectoryEnd(zip: Buffer): number {
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) return i;
  }
  return -1;
}

/** The entries as the central directory lists them, each checked to lie inside the file. */
function readEntries(zip: Buffer, fileName: string): Entry[] {
  const end = findDirectoryEnd(zip);
  if (end < 0) throw refuse('fileUnreadable', fileName);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  // zip64 (or a directory claiming more entries than a document has): refused, no real document needs it.
  if (count === 0xffff || at === 0xffffffff || count > MAX_ARCHIVE_ENTRIES) throw refuse('fileTooComplex', fileName);
  const entries: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) throw refuse('fileUnreadable', fileName);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const entry = {
      method: zip.readUInt16LE(at + 10),
      compressed: zip.readUInt32LE(at + 20),
      declared: zip.readUInt32LE(at + 24),
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
    };
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) throw refuse('fileUnreadable', fileName);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (dataStart + entry.compressed > zip.length) throw refuse('fileUnreadable', fileName);
    entries.push({ ...entry, dataStart });
  }
  return entries;
}

/** Inflates one entry as a stream, counting its bytes and dropping them; stops past `budget`. */
async function inflatedSize(data: Buffer, budget: number): Promise<number> {
  let size = 0;
  const inflate = createInflateRaw();
  const source = Readable.from([data]).pipe(inflate);
  for await (const chunk of source as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > budget) {
      source.destroy();
      break;
    }
  }
  return size;
}

/** Refuses a zip whose entries, all together, declare or really unpack to more than the limit. */
export async function checkArchiveBudget(zip: Buffer, fileName: string, limit = MAX_ARCHIVE_UNPACKED_BYTES): Promise<void> {
  const entries = readEntries(zip, fileName);
  if (entries.reduce((sum, e) => sum + e.declared, 0) > limit) throw refuse('fileTooComplex', fileName);
  let budget = limit;
  for (const entry of entries) {
    const data = zip.subarray(entry.dataStart, entry.dataStart + entry.compressed);
    let size: number;
    if (entry.method === 0) size = data.length;
    else if (entry.method === 8) {
      try {
        size = await inflatedSize(data, budget);
      } catch {
        throw refuse('fileUnreadable', fileName);
      }
    } else throw refuse('fileUnreadable', fileName);
    // A directory that understates an entry is a lie readers may trust: refuse it too.
    if (size > budget || size > entry.declared) throw refuse(size > budget ? 'fileTooComplex' : 'fileUnreadable', fileName);
    budget -= size;
  }
}
