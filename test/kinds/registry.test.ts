/**
 * The registry of kinds is the one list: a kind cannot be half-added. Every kind it holds is in the
 * config's schema and JSON Schema, the address grammar, `prune` (when prunable), the plan's order,
 * the validate summary, the import (read from the emulator and written under its key) and the
 * emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { configJsonSchema } from '../../src/config/json-schema.js';
import { ConfigDocument } from '../../src/config/schema.js';
import { emulatorKinds } from '../../src/emulator/kinds/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { convertOrg, fileNamer } from '../../src/import/convert.js';
import { readOrgState } from '../../src/import/read.js';
import { addressProblem, ADDRESS_NAMES, COUNTED, KIND_SPECS, KINDS, kindSpec, PRUNABLE, REPLACEABLE, unitOf, UNITS } from '../../src/kinds/index.js';
import { rank } from '../../src/plan/build.js';
import { demoState } from '../emulator/helpers.js';

const ORG = 'org_acme';

describe('the registry of kinds', () => {
  it('names each kind once, and each config key once', () => {
    expect(new Set(KINDS).size).toBe(KINDS.length);
    expect(new Set(UNITS.map((u) => u.configKey)).size).toBe(UNITS.length);
  });

  it('finds each unit by its config key and each kind by its name', () => {
    for (const unit of UNITS) {
      expect(unitOf(unit.configKey)).toBe(unit);
      for (const spec of unit.kinds) expect(kindSpec(spec.kind)).toBe(spec);
    }
    expect(unitOf('nope')).toBeUndefined();
    expect(kindSpec('nope' as never)).toBeUndefined();
  });

  it('orders creates in registry order, and deletes after every create in the reverse order', () => {
    for (let i = 1; i < KINDS.length; i++) {
      expect(rank('create', KINDS[i - 1])).toBeLessThan(rank('create', KINDS[i]));
      expect(rank('delete', KINDS[i - 1])).toBeGreaterThan(rank('delete', KINDS[i]));
    }
    const creates = KINDS.map((k) => rank('create', k));
    const deletes = KINDS.map((k) => rank('delete', k));
    expect(Math.max(...creates)).toBeLessThan(Math.min(...deletes));
  });

  it.each(UNITS.map((u) => [u.configKey, u] as const))('%s is in the config schema and the JSON Schema', (configKey, unit) => {
    const schema = configJsonSchema() as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toContain(configKey);
    // The document accepts the key (an empty list, or the organization mapping itself).
    const doc = { version: 1, organization: { id: ORG }, ...(unit.list ? { [configKey]: [] } : {}) };
    expect(ConfigDocument.safeParse(doc).success).toBe(true);
  });

  it.each(UNITS.map((u) => [u.configKey, u] as const))('%s is in the address grammar', (_key, unit) => {
    expect(unit.addressNames.top.length).toBeGreaterThan(0);
    for (const top of unit.addressNames.top) {
      expect(addressProblem(`${top}["x"]`)).toBeUndefined();
      for (const inner of unit.addressNames.inner ?? []) expect(addressProblem(`${top}["x"].${inner}`)).toBeUndefined();
    }
    expect(ADDRESS_NAMES.top).toEqual(expect.arrayContaining([...unit.addressNames.top]));
  });

  it.each(KIND_SPECS.map((k) => [k.kind, k] as const))('%s has a place in prune, the plan order, the summaries', (kind, spec) => {
    expect(spec.label.one.length).toBeGreaterThan(0);
    expect(spec.label.many.length).toBeGreaterThan(0);
    const prune = ConfigDocument.safeParse({ version: 1, organization: { id: ORG }, prune: [kind] });
    expect(prune.success).toBe(spec.prunable === true);
    expect(PRUNABLE.includes(kind)).toBe(spec.prunable === true);
    expect(REPLACEABLE.includes(kind)).toBe(spec.replaceable === true);
    if (spec.replaceable) expect(spec.addresses).toBeDefined();
    expect(COUNTED.includes(spec)).toBe(spec.count !== undefined);
  });

  describe('import and the emulator', () => {
    let emu: RunningEmulator;
    beforeAll(async () => {
      emu = await startEmulator({ state: demoState() });
    });
    afterAll(() => emu.close());

    it('every unit has its kind in the emulator', () => {
      const names = emulatorKinds().map((k) => k.name);
      for (const unit of UNITS) expect(names, unit.configKey).toContain(unit.configKey);
    });

    it('every unit is read and written by import, under its config key', async () => {
      const client = createClient({ baseUrl: emu.url, token: 'dev-token' });
      try {
        const state = await readOrgState(client, ORG, ['site_docs']);
        expect([...state.states.keys()]).toEqual(UNITS.map((u) => u.configKey));
        const written = convertOrg(state, fileNamer());
        for (const unit of UNITS) expect(Object.keys(written.document), unit.configKey).toContain(unit.configKey);
      } finally {
        await client.close();
      }
    });
  });
});
