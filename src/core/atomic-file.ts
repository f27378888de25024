/**
 * Files docplane writes (import's configs, `plan --out`, a plan marked applied) are written whole or
 * not at all: the text goes to a temporary file beside the target, which is then renamed over it.
 * A full disk or a cut power leaves the old file as it was, and the error names the file.
 */
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { DocplaneError } from './errors.js';

/**
 * Writes `content` to `file` atomically; a DocplaneError (FILE_WRITE_FAILED) when it cannot.
 * `what` names the file in the message (`the plan file `).
 */
export function writeFileAtomic(file: string, content: string | Uint8Array, what = ''): void {
  const existed = existsSync(file);
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o644);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    // On disk before the rename, so that the rename never exposes an empty or partial file.
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file);
  } catch (err) {
    if (fd !== undefined) closeQuietly(fd);
    rmSync(temp, { force: true });
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'its folder does not exist' : code === 'ENOSPC' ? 'no space left on the device' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EROFS' ? 'the file system is read-only' : code === 'EDQUOT' ? 'over the disk quota' : (code ?? (err as Error).message);
    throw new DocplaneError('FILE_WRITE_FAILED', `cannot write ${what}${file}: ${why}; ${existed ? 'the old file is intact' : 'nothing was written there'}`, {
      hint: 'Free some space or fix the permissions of the folder, then run the command again.',
      cause: err,
    });
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already failing: the first error is the one to tell.
  }
}
