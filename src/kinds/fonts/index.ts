/** Custom fonts (`fonts:` in the config), by family; a site customization's font may name one. */
import type { Item } from '../../source/origin.js';
import { sortBy, unique, type Draft } from '../common/import.js';
import type { Importer, KindUnit } from '../kind.js';
import { fontsModule } from './fonts.js';
import { fontAddress, readFonts, type RemoteFont } from '../shared/fonts.js';
import { Font, type FontT } from './schema.js';

export type { FontT } from './schema.js';

const importFonts: Importer<RemoteFont[]> = {
  read: (ctx) => readFonts(ctx),
  write(remote, sink) {
    const fonts = unique(
      sortBy(remote, (f) => f.fontFamily, (f) => f.id),
      (f) => f.fontFamily,
      (f, kept) => sink.warn(`${fontAddress(f.fontFamily)}: fonts ${kept.id} and ${f.id} have the same family; only ${kept.id} is written`),
    ).map(
      // The API answers files as URLs, not storage keys: the faces are written by weight, their
      // files unmanaged until a storageKey is given.
      (f): Draft => ({ id: f.id, fontFamily: f.fontFamily, fontFaces: sortBy(f.fontFaces, (x) => String(x.weight).padStart(4, '0')).map((x) => ({ weight: x.weight })) }),
    );
    if (fonts.length > 0) sink.warn(`fonts: faces are written by weight without storageKey (the API answers their files as URLs); add a storageKey to replace a face's file`);
    sink.count(fontsModule.label, fonts.length);
    return fonts;
  },
};

export const fontsUnit: KindUnit = {
  configKey: 'fonts',
  audit: {
    targets: { font: { by: 'unit' } },
    paths: { fonts: 'font' },
  },
  list: true,
  schema: Font,
  kinds: [fontsModule],
  addressNames: { top: ['fonts'] },
  flowMaps: ['fonts.*.fontFaces.*'],
  resolve(entries, ctx) {
    const items = entries as readonly Item<FontT>[];
    const families = new Set(items.map((f) => f.value.fontFamily));
    const ids = ctx.identities('fonts', 'fontFamily');
    for (const { value, origin } of items) {
      const address = fontAddress(value.fontFamily);
      if (!ctx.claim(`font:${value.fontFamily}`, address, origin)) continue;
      ids.add(value.fontFamily, value, origin, families);
    }
  },
  importer: importFonts,
};
