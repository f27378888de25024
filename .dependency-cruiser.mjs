/**
 * The layers of src/ (docs/architecture.md, "The layers"), checked by `npm run lint:deps`. Every
 * import counts, type-only ones included: a cycle through types is still a cycle to remove.
 */
const UNIT = '^src/kinds/(?!(?:common|shared)/)([^/]+)/';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No module reaches itself through its imports.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-nothing-above',
      severity: 'error',
      comment: 'src/core holds plain helpers with no knowledge of the product: it imports only src/core.',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'model-imports-nothing-above',
      severity: 'error',
      comment: 'src/model (steps, addresses, the desired state) imports only src/model and src/core.',
      from: { path: '^src/model/' },
      to: { path: '^src/', pathNot: '^src/(model|core)/' },
    },
    {
      name: 'source-imports-only-below',
      severity: 'error',
      comment: 'src/source (positions and wording) imports only src/source, src/model and src/core.',
      from: { path: '^src/source/' },
      to: { path: '^src/', pathNot: '^src/(source|model|core)/' },
    },
    {
      name: 'kinds-shared-below-units',
      severity: 'error',
      comment:
        'src/kinds/shared (the fields several kinds carry and the reads several units share) imports no unit and not the registry: only itself, src/kinds/common, the contract, src/model, src/core and src/source.',
      from: { path: '^src/kinds/shared/' },
      to: { path: '^src/', pathNot: '^src/(kinds/(common|shared)/|kinds/kind\\.ts$|model/|core/|source/)' },
    },
    {
      name: 'kinds-common-below-shared',
      severity: 'error',
      comment: 'src/kinds/common (what every kind shares: matching, steps, paths, import helpers) imports only itself, the contract, src/model, src/core and src/source.',
      from: { path: '^src/kinds/common/' },
      to: { path: '^src/', pathNot: '^src/(kinds/common/|kinds/kind\\.ts$|model/|core/|source/)' },
    },
    {
      name: 'unit-imports-allowed-layers',
      severity: 'error',
      comment:
        'A unit (src/kinds/<unit>/) imports its own folder, src/kinds/shared, src/kinds/common, the contract (src/kinds/kind.ts), src/model, src/core and src/source: never another unit, the registry or a layer above.',
      from: { path: UNIT },
      to: { path: '^src/', pathNot: ['^src/kinds/$1/', '^src/kinds/(common|shared)/', '^src/kinds/kind\\.ts$', '^src/(model|core|source)/'] },
    },
    {
      name: 'kind-contract-below-units',
      severity: 'error',
      comment: "The contract (src/kinds/kind.ts) names the types a unit fills: it imports the shared layers, src/model, src/core, src/source and the client's interface (src/api/types.ts).",
      from: { path: '^src/kinds/kind\\.ts$' },
      to: { path: '^src/', pathNot: '^src/(kinds/(common|shared)/|model/|core/|source/|api/types\\.ts$)' },
    },
    {
      name: 'kinds-through-the-registry',
      severity: 'error',
      comment:
        "Outside src/kinds, code reaches a kind through the registry (src/kinds/index.ts), the contract (src/kinds/kind.ts) and what every kind shares (src/kinds/common), never a unit's own files.",
      from: { path: '^src/', pathNot: ['^src/kinds/', '\\.test\\.ts$', '\\.test-support\\.ts$'] },
      to: { path: '^src/kinds/', pathNot: ['^src/kinds/(index|kind)\\.ts$', '^src/kinds/common/'] },
    },
    {
      name: 'api-imports-only-below',
      severity: 'error',
      comment: 'The HTTP client (src/api) depends on src/core and src/model only.',
      from: { path: '^src/api/', pathNot: ['\\.test\\.ts$', '\\.test-support\\.ts$', '^src/api/test-server\\.ts$'] },
      to: { path: '^src/', pathNot: '^src/(api|core|model)/' },
    },
    {
      name: 'emulator-knows-no-kinds',
      severity: 'error',
      comment: "The emulator mirrors the API, not docplane: it imports nothing of src/kinds, src/plan or src/apply.",
      from: { path: '^src/emulator/' },
      to: { path: '^src/(kinds|plan|apply)/' },
    },
    {
      name: 'commands-do-not-import-commands',
      severity: 'error',
      comment: 'An oclif command is thin: flags in, one service, a renderer; what two commands share lives below them.',
      from: { path: '^src/commands/([^/]+)\\.ts$' },
      to: { path: '^src/commands/', pathNot: '^src/commands/$1\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
