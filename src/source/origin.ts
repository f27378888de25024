/**
 * What the loader's stages share: where a value came from (a document and a path in it) and a way
 * to report a problem there.
 */
import type { SourceLocation } from '../model/desired.js';
import { formatPath, locate, ownCopy, type DocPath, type LocateMode, type RawIssue, type SourceDocument } from './yaml.js';

/** Where a value came from: a document and the path of the value inside it. */
export interface Origin {
  source: SourceDocument;
  path: (string | number)[];
}

/** A value of a list, with where it came from (lists of several documents are concatenated). */
export interface Item<T> {
  value: T;
  origin: Origin;
}

export function child(origin: Origin, ...segments: (string | number)[]): Origin {
  // concat makes an array of exactly the path's length; a spread leaves room to grow (about 160
  // bytes more per path, and a config at scale keeps one path per address it defines).
  return { source: origin.source, path: origin.path.concat(segments) };
}

/**
 * Where a value came from, as file:line:column. The line and column are worked out when first read:
 * a file whose parse was let go is parsed again only then (src/source/yaml.ts), and most
 * locations (every resource's, OrgConfig.locations) are never read unless a problem names them.
 */
export function locationOf(origin: Origin, mode: LocateMode = 'value'): SourceLocation {
  let at: { line: number; column: number } | undefined;
  const get = () => (at ??= locate(origin.source, origin.path, mode));
  // Getters of an object literal: own, enumerable properties, as plain values would be.
  return {
    file: origin.source.file.display,
    get line() {
      return get().line;
    },
    get column() {
      return get().column;
    },
  };
}

/**
 * Where each address of a config is defined, as a record of SourceLocation read like a plain one
 * (`locations[address]`, `Object.keys(locations)`), holding only each address's origin until a
 * location is read. A config at scale names tens of thousands of addresses and a plan reads a few
 * (those its problems name): a location object with its own getters per address was most of a
 * loaded config's memory.
 */
export function lazyLocations(): { record: Record<string, SourceLocation>; add(address: string, origin: Origin, mode: LocateMode): void } {
  // Per address only its origin; the few not located at their value keep their mode beside.
  const origins = new Map<string, Origin>();
  const modes = new Map<string, LocateMode>();
  const made = new Map<string, SourceLocation>();
  const at = (address: string): SourceLocation | undefined => {
    let location = made.get(address);
    if (location === undefined) {
      const origin = origins.get(address);
      if (origin === undefined) return undefined;
      location = locationOf(origin, modes.get(address) ?? 'value');
      made.set(address, location);
    }
    return location;
  };
  const record = new Proxy({} as Record<string, SourceLocation>, {
    get: (_, p) => (typeof p === 'string' ? at(p) : undefined),
    has: (_, p) => typeof p === 'string' && origins.has(p),
    ownKeys: () => [...origins.keys()],
    // An accessor, so that listing the keys (Object.keys asks each key's descriptor) makes no location.
    getOwnPropertyDescriptor: (_, p) => (typeof p === 'string' && origins.has(p) ? { get: () => at(p), enumerable: true, configurable: true } : undefined),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
  return {
    record,
    add(address, origin, mode) {
      if (origins.has(address)) return;
      // An address built by concatenation is a tree of string parts: kept as one flat copy.
      const key = ownCopy(address);
      origins.set(key, origin);
      if (mode !== 'value') modes.set(key, mode);
    },
  };
}

export function where(origin: Origin, mode: LocateMode = 'value'): string {
  const l = locationOf(origin, mode);
  return `${l.file}:${l.line}:${l.column}`;
}

/** Collects problems at places in documents. */
export class Problems {
  readonly issues: RawIssue[] = [];

  at(origin: Origin, message: string, mode: LocateMode = 'value'): void {
    this.atPath(origin.source, origin.path, message, mode);
  }

  atPath(source: SourceDocument, path: DocPath, message: string, mode: LocateMode = 'value'): void {
    this.issues.push({ file: source.file, ...locate(source, path, mode), path: formatPath(path), message });
  }
}
