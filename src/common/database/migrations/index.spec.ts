import { readdirSync } from 'node:fs';
import { migrations } from './index';

describe('migrations index', () => {
  it('lists every migration file of the folder, in timestamp order', () => {
    const files = readdirSync(__dirname)
      .filter((f) => /^\d{13}-.+\.ts$/.test(f))
      .sort();
    const listed = migrations.map((m) => {
      const timestamp = /(\d{13})$/.exec(m.name)?.[1];
      return files.find((f) => f.startsWith(`${timestamp}-`));
    });
    expect(listed).toEqual(files);
  });
});
