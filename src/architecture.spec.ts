import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/*
 * The rules of docs/architecture.md that the compiler does not check, over every file of src/:
 * a module is imported through its index; a module depends only on the modules below it; an index
 * exports what others use of its module and nothing more; no file is over 400 lines.
 */

const SRC = __dirname;
const MAX_LINES = 400;

/**
 * The modules from the bottom up, each with the modules it may import (all of them listed before
 * it, so that no two modules can import each other). A new module gets its line here.
 */
const LAYERS: readonly (readonly [string, readonly string[]])[] = [
  ['accounts', []],
  ['catalog', ['accounts']],
  ['forms', ['accounts', 'catalog']],
  ['certificates', ['accounts', 'catalog']],
  ['availability', ['accounts', 'catalog']],
  ['calendar-sync', ['accounts', 'availability', 'catalog']],
  ['clients', ['accounts']],
  ['appointments', ['accounts', 'availability', 'catalog', 'certificates', 'clients', 'forms']],
  ['notifications', ['accounts', 'appointments', 'availability']],
  ['holds', ['accounts', 'availability']],
  ['webhooks', ['accounts']],
  ['oauth', ['accounts']],
  ['pages', ['accounts', 'catalog', 'forms', 'availability', 'appointments', 'holds']],
];

interface SourceFile {
  /** Relative to src/, with forward slashes. */
  path: string;
  text: string;
  /** The module folder the file is in, if any. */
  module: string | undefined;
  isTest: boolean;
}

interface Import {
  from: SourceFile;
  /** As written. */
  specifier: string;
  /** The target relative to src/, without extension (`modules/catalog/index`). */
  target: string;
  targetModule: string | undefined;
}

function sourceFiles(dir: string): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    if (!/\.tsx?$/.test(entry.name)) return [];
    const path = relative(SRC, full).split(sep).join('/');
    return [
      {
        path,
        text: readFileSync(full, 'utf8'),
        module: moduleOf(path),
        isTest: /\.(spec|int-spec)\.ts$|\.fixtures\.ts$/.test(path),
      },
    ];
  });
}

/** `modules/catalog/label.entity.ts` → `catalog`. */
function moduleOf(path: string): string | undefined {
  const parts = path.split('/');
  return parts[0] === 'modules' && parts.length > 2 ? parts[1] : undefined;
}

function importsOf(file: SourceFile): Import[] {
  return ts
    .preProcessFile(file.text, true, true)
    .importedFiles.filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }) => {
      const target = relative(SRC, resolve(SRC, dirname(file.path), fileName))
        .split(sep)
        .join('/');
      const isFolder = /^modules\/[^/]+$/.test(target);
      return {
        from: file,
        specifier: fileName,
        target: isFolder ? `${target}/index` : target,
        targetModule: moduleOf(isFolder ? `${target}/index` : target),
      };
    });
}

/**
 * What `import { a, type B } from '…'` names, by specifier; and `export { a } from '…'` (an index
 * handing on another module's name uses it as an import would).
 */
function namedImports(file: SourceFile): Map<string, string[]> {
  const names = new Map<string, string[]>();
  const add = (specifier: ts.Expression | undefined, named: string[]) => {
    const text = (specifier as ts.StringLiteral).text;
    names.set(text, [...(names.get(text) ?? []), ...named]);
  };
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        add(
          statement.moduleSpecifier,
          bindings.elements.map((element) => element.name.text),
        );
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      add(
        statement.moduleSpecifier,
        statement.exportClause.elements.map(
          (element) => (element.propertyName ?? element.name).text,
        ),
      );
    }
  }
  return names;
}

function exportedNames(file: SourceFile): string[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) =>
    ts.isExportDeclaration(statement) &&
    statement.exportClause &&
    ts.isNamedExports(statement.exportClause)
      ? statement.exportClause.elements.map((element) => element.name.text)
      : [],
  );
}

const files = sourceFiles(SRC);
const imports = files.flatMap(importsOf);
const modules = [...new Set(files.map((file) => file.module).filter((m) => m !== undefined))];
const crossModule = imports.filter(
  (i) => i.targetModule !== undefined && i.targetModule !== i.from.module,
);
const describeImport = (i: Import) => `${i.from.path}: '${i.specifier}'`;

describe('module boundaries (docs/architecture.md)', () => {
  it('another module is imported through its index, never one of its files', () => {
    const intoFiles = crossModule.filter((i) => !i.from.isTest && !i.target.endsWith('/index'));
    expect(intoFiles.map(describeImport)).toEqual([]);
  });

  it('a module imports its own files, never its own index', () => {
    const ownIndex = imports.filter(
      (i) => i.from.module !== undefined && i.target === `modules/${i.from.module}/index`,
    );
    expect(ownIndex.map(describeImport)).toEqual([]);
  });

  it('every module has an index and a place in the layers', () => {
    const indexes = new Set(files.map((file) => file.path));
    expect(modules.filter((m) => !indexes.has(`modules/${m}/index.ts`))).toEqual([]);
    expect(modules.filter((m) => !LAYERS.some(([name]) => name === m))).toEqual([]);
  });

  it('the layers list a module after every module it may import', () => {
    const misplaced = LAYERS.flatMap(([name, below], position) =>
      below
        .filter((m) => !LAYERS.slice(0, position).some(([earlier]) => earlier === m))
        .map((m) => `${name} may import ${m}, listed after it`),
    );
    expect(misplaced).toEqual([]);
  });

  it('imports go down the layers: app → modules (in LAYERS order) → common and config', () => {
    const allowed = new Map<string | undefined, readonly string[]>(LAYERS);
    const upward = imports.filter((i) => {
      if (i.from.isTest) return false;
      const layer = i.target.split('/')[0];
      if (layer === 'common' || layer === 'config') return false;
      if (i.from.module === undefined)
        return ['common', 'config'].includes(i.from.path.split('/')[0]);
      return (
        i.targetModule !== i.from.module && !allowed.get(i.from.module)?.includes(i.targetModule!)
      );
    });
    expect(upward.map(describeImport)).toEqual([]);
  });

  it('an index exports exactly what the rest of src/ imports from it', () => {
    const used = new Map<string, Set<string>>(modules.map((m) => [m, new Set<string>()]));
    for (const file of files.filter((f) => !f.isTest)) {
      const named = namedImports(file);
      for (const i of importsOf(file)) {
        if (i.targetModule === undefined || i.targetModule === file.module) continue;
        if (!i.target.endsWith('/index')) continue;
        for (const name of named.get(i.specifier) ?? []) used.get(i.targetModule)!.add(name);
      }
    }
    const unused = files
      .filter(
        (file) => file.module !== undefined && file.path === `modules/${file.module}/index.ts`,
      )
      .flatMap((index) =>
        exportedNames(index)
          .filter((name) => !used.get(index.module!)!.has(name))
          .map((name) => `${index.path}: ${name}`),
      );
    expect(unused).toEqual([]);
  });
});

describe('file size', () => {
  it(`no file in src/ is over ${MAX_LINES} lines (specs included)`, () => {
    const long = files
      .map((file) => ({ path: file.path, lines: file.text.split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ path, lines }) => `${path}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('the booking use case reads in one sitting: its handler is at most 150 lines', () => {
    const handler = files.find(
      (f) => f.path === 'modules/appointments/book-appointment.handler.ts',
    );
    expect(handler?.text.split('\n').length).toBeLessThanOrEqual(151);
  });
});

/**
 * Where SQL may be written: a module's `*.repository.ts` files, entities (their decorators), Nest
 * modules (TypeOrmModule.forFeature), and src/common/database (the unit of work, the helpers
 * repositories are made of, the schema).
 */
const PERSISTENCE_FILE =
  /\.repository\.ts$|\.entity\.ts$|\.module\.ts$|^common\/database\/|\/migrations\//;
/** Infrastructure of common/database that repositories are made of: SQL, not for other files. */
const SQL_HELPERS =
  /common\/database\/(tenant-rows|tenant-repository|insert-rows|prepared|leased-rows|read-committed|schema)$/;
/** A call that reads or writes through TypeORM or the driver. */
const SQL_CALL =
  /\.(query|queryPrepared|createQueryBuilder|getRepository|transaction)\(|\b(tx|manager|em|dataSource|writer|reader|db)\.(find\w*|save|insert|update|delete|upsert|count\w*|exists\w*|increment|decrement|softDelete|remove)\(/;

describe('persistence', () => {
  it('SQL is written only in repositories: no other file queries, imports TypeORM values or SQL helpers (types may be named)', () => {
    const offending = files
      .filter((file) => !file.isTest && !PERSISTENCE_FILE.test(file.path))
      .flatMap((file) => {
        const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest);
        const valueImports = source.statements.filter(
          (s): s is ts.ImportDeclaration =>
            ts.isImportDeclaration(s) &&
            ['typeorm', '@nestjs/typeorm'].includes((s.moduleSpecifier as ts.StringLiteral).text) &&
            !s.importClause?.isTypeOnly &&
            !(
              s.importClause?.namedBindings &&
              ts.isNamedImports(s.importClause.namedBindings) &&
              s.importClause.namedBindings.elements.every((e) => e.isTypeOnly)
            ),
        );
        const typeOnly = new Set(
          source.statements.flatMap((s) =>
            ts.isImportDeclaration(s) && s.importClause?.isTypeOnly
              ? [(s.moduleSpecifier as ts.StringLiteral).text]
              : [],
          ),
        );
        const helpers = importsOf(file).filter(
          (i) => SQL_HELPERS.test(i.target) && !typeOnly.has(i.specifier),
        );
        const calls = file.text
          .split('\n')
          .flatMap((line, n) =>
            SQL_CALL.test(line) ? [`${file.path}:${n + 1}: ${line.trim()}`] : [],
          );
        return [
          ...valueImports.map((s) => `${file.path}: imports ${s.moduleSpecifier.getText(source)}`),
          ...helpers.map(describeImport),
          ...calls,
        ];
      });
    expect(offending).toEqual([]);
  });

  it('no dependency is patched at run time: nothing reaches into node_modules or a prototype', () => {
    const patches = files
      .filter((file) => !file.isTest)
      .flatMap((file) =>
        file.text
          .split('\n')
          .flatMap((line, n) =>
            /\.prototype\.\w+\s*=[^=]|require\.resolve\(|require\(['"][^'"]+\/(lib|dist|src)\/|^import (?!type)[^'"]*from ['"][^.'"][^'"]*\/(lib|dist|src)\//.test(
              line,
            )
              ? [`${file.path}:${n + 1}: ${line.trim()}`]
              : [],
          ),
      );
    expect(patches).toEqual([]);
  });
});
