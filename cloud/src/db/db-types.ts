import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import kanel, { type ConfigV3, type PreRenderHookV3 } from 'kanel';
import kanelKnex from 'kanel-knex';
import { knexSnakeCaseMappers } from 'objection';

/**
 * The generator's configuration (kanel + kanel-knex): one file with a selector, an initializer and a
 * mutator type per table of the `public` schema, and the `knex/types/tables` augmentation that makes
 * `db('clients')` typed. Columns are named as our knex instance hands them out: camelCase, by the same
 * mapper (`knexSnakeCaseMappers`). Ids are plain strings (no branded id types: every service passes
 * ids around as strings).
 */

const { generateKnexTablesModule, knexTypeFilter } = kanelKnex;
const mappers = knexSnakeCaseMappers();
const camel = (column: string): string =>
  Object.keys(mappers.postProcessResponse({ [column]: null }) as object)[0]!;
/**
 * The key an insert or an update writes a column with: camelCase when the mapper turns it back into
 * the column, else the column's own name (`client_a_id` reads as `clientAId`, which would be written
 * to `client_aid`).
 */
const writeKey = (column: string): string =>
  mappers.wrapIdentifier(camel(column), (s: string) => s) === column ? camel(column) : column;

/** int8 comes back as a number: `db/knex.ts` installs that parser (counts stay far below 2^53). */
const customTypeMap = { 'pg_catalog.int8': 'number', 'pg_catalog.xid8': 'string' };

/**
 * jsonb is `unknown` (read it through a parser) except the texts that every module stores per
 * language: a jsonb `name`, `description`, `name_texts` or `description_texts` is a `LocaleText` (`shared/domain/locale-text`).
 */
const isLocaleText = (property: { name: string; type?: { fullName?: string } }): boolean =>
  ['name', 'description', 'name_texts', 'description_texts'].includes(property.name) &&
  property.type?.fullName === 'pg_catalog.jsonb';
const LOCALE_TEXT = {
  name: 'LocaleText',
  typeImports: [
    {
      name: 'LocaleText',
      path: '../../../../shared/domain/locale-text',
      isAbsolute: true,
      isDefault: false,
      importAsType: true,
    },
  ],
};

/** Which table each generated type name belongs to, and its rank there (for a stable order). */
const owners = new Map<string, { table: string; rank: number }>();
const RANK = { id: 0, selector: 1, initializer: 2, mutator: 3 } as const;

/** kanel-knex writes its `declare module` into a file of its own; we want it in the one file. */
const knexTablesIntoOneFile =
  (file: string): PreRenderHookV3 =>
  async (output, config) => {
    // kanel-knex's hook is a V3 hook (output, config); its declared type is V4's (output).
    const withModule = await (generateKnexTablesModule as unknown as PreRenderHookV3)(output, config);
    const modulePath = path.join(config.outputPath, 'knex-tables');
    const module = withModule[modulePath];
    if (module?.fileType !== 'typescript') throw new Error('unexpected kanel-knex output');
    // Its imports point at the types' file, which is this file: keep only knex's.
    const declarations = module.declarations.map((d) =>
      'typeImports' in d && d.typeImports
        ? { ...d, typeImports: d.typeImports.filter((i) => i.path === 'knex') }
        : d,
    );
    const rest = { ...withModule };
    delete rest[modulePath];
    const tables = rest[file]!;
    if (tables.fileType !== 'typescript') throw new Error('unexpected kanel output');
    // Deterministic: tables by name, and per table its id types, row, insert, update.
    const key = (d: { declarationType: string; name?: string }) => {
      const owner = d.name ? owners.get(d.name) : undefined;
      return owner ? `${owner.table}\u0000${owner.rank}\u0000${d.name}` : `\uffff${d.name ?? ''}`;
    };
    const sorted = [...tables.declarations].sort((a, b) => {
      const ka = key(a as { declarationType: string; name?: string });
      const kb = key(b as { declarationType: string; name?: string });
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
    return { ...rest, [file]: { ...tables, declarations: [...sorted, ...declarations] } };
  };

/** Generates the declarations from the database at `url` and returns the file's text. */
export async function renderTables(url: string): Promise<string> {
  const outputPath = await fs.mkdtemp(path.join(os.tmpdir(), 'kanel-'));
  const file = path.join(outputPath, 'tables');
  const config: ConfigV3 = {
    connection: url,
    schemas: ['public'],
    outputPath,
    preDeleteOutputFolder: false,
    typeFilter: knexTypeFilter,
    customTypeMap,
    enumStyle: 'type',
    getMetadata: (details, generateFor) => {
      const base = pascal(details.name);
      const suffix = generateFor === 'initializer' ? 'Insert' : generateFor === 'mutator' ? 'Update' : 'Row';
      owners.set(`${base}${suffix}`, { table: details.name, rank: RANK[generateFor ?? 'selector'] });
      return { name: `${base}${suffix}`, comment: undefined, path: file, exportAs: 'named' };
    },
    getPropertyMetadata: (property, _details, generateFor) => ({
      name: generateFor === 'selector' ? camel(property.name) : writeKey(property.name),
      comment: undefined,
      ...(isLocaleText(property) ? { typeOverride: LOCALE_TEXT } : {}),
    }),
    generateIdentifierType: (column, details) => {
      const name = `${pascal(details.name)}${pascal(column.name)}`;
      owners.set(name, { table: details.name, rank: RANK.id });
      return {
        declarationType: 'typeDeclaration',
        name,
        exportAs: 'named',
        // uuid and text keys are strings; integer keys (a year in a composite key) numbers.
        typeDefinition: [/^pg_catalog\.int[248]$/.test(column.type.fullName) ? 'number' : 'string'],
        comment: undefined,
      };
    },
    preRenderHooks: [knexTablesIntoOneFile(file)],
    postRenderHooks: [
      // No blank line between two properties (kanel puts one after each).
      (_path, lines) => lines.filter((line, i) => !(line === '' && /^\s+\S.*;$/.test(lines[i - 1] ?? ''))),
      writableValues,
    ],
  };
  try {
    // kanel lists every file it writes on the console: keep the command's output to its own lines.
    const log = console.log;
    console.log = () => {};
    try {
      await kanel.processDatabase(config);
    } finally {
      console.log = log;
    }
    // kanel also writes the database functions' types (under public/): we want the tables only.
    const text = await fs.readFile(`${file}.ts`, 'utf8');
    return `${HEADER}\n${text}`;
  } finally {
    await fs.rm(outputPath, { recursive: true, force: true });
  }
}

/**
 * What an insert or an update may write: a date or timestamp also as a string (pg sends it as it is:
 * `'2026-11-26'`, an ISO instant), a locale text also as its JSON text, and any column as a `Knex.Raw`
 * (`trx.fn.now()`, `trx.raw(...)`).
 * Rows read stay exact: `Date`.
 */
const writableValues = (_path: string, lines: string[]): string[] => {
  let writable = false;
  return lines.map((line) => {
    const open = /^export interface \w+(Insert|Update) \{$/.exec(line);
    if (open) writable = true;
    else if (line.startsWith('}')) writable = false;
    const property = /^(\s+\w+\??: )(.+);$/.exec(line);
    if (!writable || !property) return line;
    // jsonb goes in as JSON text too (pg would write an array as a PostgreSQL array).
    const type = property[2]!
      .replace(/\bDate\b/g, 'Date | string')
      .replace(/\bLocaleText\b/g, 'LocaleText | string');
    return `${property[1]}${type} | Knex.Raw;`;
  });
};

const pascal = (name: string): string =>
  name
    .split('_')
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : ''))
    .join('');

const HEADER = `/* eslint-disable */
// Generated by \`npm run db:types\` (kanel + kanel-knex) from the migrated schema: do not edit.
// Every table's row as knex returns it (camelCase), what an insert takes and what an update takes, and
// the \`knex/types/tables\` augmentation that types \`db('table')\`. CI fails when this file is stale.
`;
