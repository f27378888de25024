// The validator must not pass vacuously: each test breaks one thing in an exchange that conforms
// and expects exactly that to be reported (docs/conformance.md).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED_DIFFERENCES, isAllowed } from './allow.js';
import { correctExchanges } from './fixtures.js';
import { createRecorder, readExchangeLog } from './recorder.js';
import { createConformance, formatProblem, type Conformance, type ConformanceProblem, type Exchange, type OpenApiDocument } from './validator.js';

let conformance: Conformance;
beforeAll(() => {
  conformance = createConformance();
});

const fixture = (i: number): Exchange => structuredClone(correctExchanges()[i]);
const lines = (problems: ConformanceProblem[]) => problems.map(formatProblem);

describe('a conforming exchange', () => {
  it('passes, for several operations, with and without /v1, with 204/205 and no body', () => {
    for (const exchange of correctExchanges()) expect(lines(conformance.check(exchange)), exchange.path).toEqual([]);
  });

  it('is routed to its operation', () => {
    expect(conformance.operationFor('GET', '/v1/orgs/o/teams/t?x=1')).toEqual({ id: 'getTeamInOrganizationById', method: 'GET', template: '/orgs/{organizationId}/teams/{teamId}' });
    expect(conformance.operationFor('PATCH', '/v1/orgs/o/sites/s/structure/sort')?.id).toBe('sortSiteStructure');
    expect(conformance.operationFor('GET', '/v1/nowhere')).toBeUndefined();
  });
});

describe('the request side', () => {
  it('flags a wrong request body: a team PUT with a numeric title', () => {
    const exchange = fixture(0);
    exchange.requestBody = { title: 42 };
    expect(lines(conformance.check(exchange))).toEqual(['createOrganizationTeam request /title: must be string']);
  });

  it('flags a missing required request body, and a body where none is documented', () => {
    const put = fixture(0);
    put.requestBody = undefined;
    expect(lines(conformance.check(put))).toEqual(['createOrganizationTeam request (root): the operation requires a body and none was sent']);
    const del = fixture(3);
    del.requestBody = { force: true };
    expect(lines(conformance.check(del))).toEqual(['deleteSiteShareLinkById request (root): a body was sent but the operation documents none']);
  });

  it('flags an unknown query parameter and an invalid one after coercion', () => {
    const exchange = fixture(2);
    exchange.path = '/v1/orgs/org_acme/sites/site_docs/share-links?limit=5000&pageSize=10';
    expect(lines(conformance.check(exchange))).toEqual([
      "listSiteShareLinks query /pageSize: query parameter 'pageSize' is not documented",
      'listSiteShareLinks query /limit: must be <= 1000',
    ]);
    const boolean = fixture(6);
    boolean.path = '/orgs/org_acme/sites/site_docs/site-spaces?default=maybe';
    expect(lines(conformance.check(boolean))).toEqual(['listSiteSpaces query /default: must be boolean']);
  });

  it('coerces repeated query parameters to arrays and checks their items', () => {
    const ok = { method: 'GET', path: '/v1/orgs/org_acme/sites?limit=10&type=basic&type=premium', status: 200, responseBody: { items: [] } };
    expect(lines(conformance.check(ok))).toEqual([]);
    expect(lines(conformance.check({ ...ok, path: '/v1/orgs/org_acme/sites?type=gold' }))[0]).toMatch(/^listSites query \/type\/0: must be equal to one of the allowed values/);
  });

  it('flags a missing required query parameter and a missing path parameter', () => {
    const search = { method: 'GET', path: '/v1/orgs/org_acme/search', status: 200, responseBody: { items: [] } };
    expect(lines(conformance.check(search))).toContain("searchOrganizationContent query /query: required query parameter 'query' is missing");
    const team = fixture(0);
    team.path = '/v1/orgs//teams';
    expect(lines(conformance.check(team))).toEqual(['createOrganizationTeam path /organizationId: must match pattern "^[a-zA-Z0-9_-]+$"']);
  });

  it('flags an operation the description does not have', () => {
    const exchange = { method: 'POST', path: '/v1/orgs/org_acme/sites/site_docs/section-groups/sg_1/sections', requestBody: { sectionId: 's' }, status: 200 };
    expect(lines(conformance.check(exchange))).toEqual(['POST /orgs/org_acme/sites/site_docs/section-groups/sg_1/sections path (root): the description has no operation POST for this path']);
    expect(lines(conformance.check({ method: 'PUT', path: '/v1/orgs/org_acme/sites', status: 200 }))).toHaveLength(1);
  });
});

describe('the response side', () => {
  it('flags a missing required field of a documented response', () => {
    const exchange = fixture(0);
    delete (exchange.responseBody as Record<string, unknown>).createdAt;
    expect(lines(conformance.check(exchange))).toEqual(["createOrganizationTeam response (root): must have required property 'createdAt'"]);
    const list = fixture(2);
    delete (list.responseBody as { items: Record<string, unknown>[] }).items[0].urls;
    expect(lines(conformance.check(list))).toEqual(["listSiteShareLinks response /items/0: must have required property 'urls'"]);
  });

  it('flags an undocumented status', () => {
    const exchange = { ...fixture(0), status: 200 };
    expect(lines(conformance.check(exchange))).toEqual(['createOrganizationTeam status /200: status 200 is not documented (documented: 201)']);
    const notFound = { ...fixture(3), status: 404, responseBody: { error: { code: 404, message: 'gone' } } };
    expect(lines(conformance.check(notFound))).toEqual(['deleteSiteShareLinkById status /404: status 404 is not documented (documented: 204, 205)']);
  });

  it('flags a body missing where one is documented, and one answered where none is', () => {
    const exchange = fixture(0);
    exchange.responseBody = undefined;
    expect(lines(conformance.check(exchange))).toEqual(['createOrganizationTeam response (root): status 201 documents a JSON body but none was answered']);
    const deleted = { ...fixture(3), responseBody: { ok: true } };
    expect(lines(conformance.check(deleted))).toEqual(['deleteSiteShareLinkById response (root): status 205 documents no body but one was answered']);
  });

  it('names the branch a value means in a oneOf instead of listing every branch', () => {
    // children of a section group: oneOf section, group, external link; a section missing its path.
    const section = { object: 'site-section', id: 's1', title: 'Guides', urls: {}, siteSpaces: [], draft: false };
    const group = { object: 'site-section-group', id: 'g1', title: 'Products', draft: false, sections: [], children: [section] };
    const problems = lines(conformance.check({ method: 'GET', path: '/v1/orgs/o/sites/s/section-groups/g1', status: 200, responseBody: group }));
    // No such GET: the description has PATCH and DELETE only on this path.
    expect(problems).toEqual(['GET /orgs/o/sites/s/section-groups/g1 path (root): the description has no operation GET for this path']);
    const created = lines(conformance.check({ method: 'POST', path: '/v1/orgs/o/sites/s/section-groups', requestBody: { title: 'Products' }, status: 201, responseBody: group }));
    expect(created).toContain("addSectionGroupToSite response /children/0: must have required property 'path'");
    expect(created.every((l) => l.startsWith('addSectionGroupToSite response /children/0'))).toBe(true);
    // Not the errors of the other branches (a group's `children`, an external link's `url`).
    expect(created.some((l) => /'url'|'children'|site-external-link|oneOf/.test(l))).toBe(false);
  });
});

describe('four requests the live service refuses (docs/conformance.md)', () => {
  it('flags three of them from the description alone; a cross-level sort is a valid body', () => {
    const collection = { method: 'PATCH', path: '/v1/collections/col_1', requestBody: { description: null }, status: 200, responseBody: fixture(1).responseBody };
    expect(lines(conformance.check(collection))).toEqual(['updateCollectionById request /description: must be string']);
    expect(lines(conformance.check({ ...collection, requestBody: { description: '' } }))).toEqual([]);
    const saml = { method: 'PATCH', path: '/v1/orgs/org_acme/saml/saml_1', requestBody: { defaultTeam: null }, status: 0 };
    expect(lines(conformance.check(saml))).toEqual(['updateOrganizationSAMLProvider request /defaultTeam: must be string']);
    const sort = {
      method: 'PATCH',
      path: '/v1/orgs/org_acme/sites/site_docs/structure/sort',
      requestBody: { item: { type: 'site-section', id: 'sec_1' }, position: { after: { type: 'site-section', id: 'sec_in_a_group' } } },
      status: 0,
    };
    expect(lines(conformance.check(sort))).toEqual([]);
    for (const method of ['POST', 'DELETE']) {
      const path = method === 'POST' ? '/v1/orgs/org_acme/sites/site_docs/section-groups/sg_1/sections' : '/v1/orgs/org_acme/sites/site_docs/section-groups/sg_1/sections/sec_1';
      expect(conformance.check({ method, path, status: 0 }).map((p) => p.where)).toEqual(['path']);
    }
  });
});

describe('faults', () => {
  it('checks only the request side of a reset, a 429 and an injected 5xx', () => {
    const reset = { ...fixture(0), status: 0, responseBody: undefined };
    expect(lines(conformance.check(reset))).toEqual([]);
    expect(lines(conformance.check({ ...reset, requestBody: { title: 1 } }))).toEqual(['createOrganizationTeam request /title: must be string']);
    const limited = { ...fixture(0), status: 429, responseBody: { error: { code: 429, message: 'API rate limit exceeded' } } };
    expect(lines(conformance.check(limited))).toEqual([]);
    const fault = { ...fixture(0), status: 503, responseBody: 'not json at all', fault: 'error-after' };
    expect(lines(conformance.check(fault))).toEqual([]);
  });
});

describe('routing', () => {
  it('prefers a literal segment over a parameter', () => {
    const body = { type: 'object', required: ['kind'], properties: { kind: { const: 'literal' } } };
    const description: OpenApiDocument = {
      openapi: '3.1.0',
      paths: {
        '/orgs/{organizationId}/{x}': { get: { operationId: 'byParameter', responses: { '200': { description: 'OK' } } } },
        '/orgs/{organizationId}/sites': { get: { operationId: 'byLiteral', responses: { '2XX': { description: 'OK', content: { 'application/json': { schema: body } } } } } },
      },
    };
    const small = createConformance({ description });
    expect(small.operationFor('GET', '/v1/orgs/o/sites')?.id).toBe('byLiteral');
    expect(small.operationFor('GET', '/v1/orgs/o/teams')?.id).toBe('byParameter');
    // 2XX covers 203; the body is checked against it.
    expect(lines(small.check({ method: 'GET', path: '/orgs/o/sites', status: 203, responseBody: { kind: 'other' } }))).toEqual(['byLiteral response /kind: must be equal to constant: "literal"']);
  });
});

describe('recorder and allow-list', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docplane-conformance-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('allows no difference: docplane sends none of the requests the live service refuses (docs/conformance.md)', () => {
    expect(ALLOWED_DIFFERENCES).toEqual([]);
    const allowed = (p: ConformanceProblem) => isAllowed(p, ALLOWED_DIFFERENCES);
    expect(allowed({ operation: 'updateCollectionById', where: 'request', pointer: '/description', message: 'must be string' })).toBe(false);
    const unknown = (path: string) => ({ operation: path, where: 'path' as const, pointer: '', message: 'the description has no operation' });
    expect(allowed(unknown('POST /orgs/o/sites/s/section-groups/g/sections'))).toBe(false);
  });

  it('drops only the problems an entry covers', () => {
    const problem: ConformanceProblem = { operation: 'listSiteShareLinks', where: 'response', pointer: '/items/3/name', message: 'x' };
    expect(isAllowed(problem, [{ operation: 'listSiteShareLinks', pointer: /^\/items\/\d+\/name$/, reason: 'test' }])).toBe(true);
    expect(isAllowed(problem, [{ operation: 'listSiteShareLinks', pointer: '/items/3/name', where: 'request', reason: 'test' }])).toBe(false);
    expect(isAllowed(problem, [{ operation: 'listTeams', pointer: /.*/, reason: 'test' }])).toBe(false);
  });

  it('records exchanges, deduplicates problems and counts operations', () => {
    const recorder = createRecorder({ conformance });
    const broken = fixture(0);
    broken.requestBody = { title: 1 };
    for (const e of [...correctExchanges(), broken, structuredClone(broken)]) recorder.record(e);
    expect(recorder.problems().map(formatProblem)).toEqual(['createOrganizationTeam request /title: must be string']);
    expect(recorder.problemCounts()[0]).toMatchObject({ count: 2, statuses: [201], endpoint: 'PUT /orgs/{organizationId}/teams' });
    expect(recorder.summary()).toEqual({ exchanges: 9, operations: 6, unknown: 0 });
  });

  it('collapses array indices when asked', () => {
    const recorder = createRecorder({ conformance });
    const list = fixture(2);
    const items = (list.responseBody as { items: Record<string, unknown>[] }).items;
    items.push({ ...items[0] });
    for (const item of items) delete item.urls;
    recorder.record(list);
    expect(recorder.problemCounts().length).toBe(2);
    expect(recorder.problemCounts({ collapseIndices: true }).map((c) => formatProblem(c.problem))).toEqual(["listSiteShareLinks response /items/*: must have required property 'urls'"]);
  });

  it('reads the emulator log, null bodies as none, and names a bad line', async () => {
    const file = join(dir, 'log.jsonl');
    const entries = [
      { method: 'DELETE', path: '/v1/orgs/org_acme/sites/site_docs/share-links/link_1', requestBody: null, status: 205, responseBody: null },
      { method: 'PUT', path: '/v1/orgs/org_acme/teams', requestBody: { title: 'x' }, status: 0, responseBody: null, fault: 'reset-before' },
    ];
    writeFileSync(file, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const exchanges = await readExchangeLog(file);
    expect(exchanges).toEqual([
      { method: 'DELETE', path: '/v1/orgs/org_acme/sites/site_docs/share-links/link_1', requestBody: undefined, status: 205, responseBody: undefined },
      { method: 'PUT', path: '/v1/orgs/org_acme/teams', requestBody: { title: 'x' }, status: 0, responseBody: undefined, fault: 'reset-before' },
    ]);
    expect(exchanges.flatMap((e) => conformance.check(e))).toEqual([]);
    writeFileSync(file, '{"method":"GET"}\n');
    await expect(readExchangeLog(file)).rejects.toThrow(/log\.jsonl:1: not an exchange/);
  });

  it('checks a thousand exchanges in well under a second of CPU once compiled', () => {
    const exchanges = correctExchanges();
    for (const e of exchanges) conformance.check(e);
    // This process's CPU, not the wall: other processes on a loaded machine do not count.
    const start = process.cpuUsage();
    for (let i = 0; i < 1000; i++) conformance.check(exchanges[i % exchanges.length]);
    const used = process.cpuUsage(start);
    expect((used.user + used.system) / 1000).toBeLessThan(1000);
  });
});
