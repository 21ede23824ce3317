import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Expose, plainToInstance } from 'class-transformer';
import { IsString, type ValidatorOptions, getMetadataStorage, validate } from 'class-validator';
import fc from 'fast-check';
import { toInvalidAttribute } from './api-validation.pipe';
import { declaredOnly, requestDtoTransformer } from './request-dto-transformer';

/** Every request DTO of the API: the exported classes with validation rules of its request files. */
function requestDtos(): [string, new () => object][] {
  const found: [string, new () => object][] = [];
  const modules = join(__dirname, '../../modules');
  for (const dir of readdirSync(modules)) {
    for (const file of readdirSync(join(modules, dir))) {
      if (!/\.requests?\.ts$/.test(file)) continue;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exported = require(join(modules, dir, file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exported)) {
        if (typeof value === 'function' && rulesOf(value).length > 0)
          found.push([name, value as new () => object]);
      }
    }
  }
  return found;
}

const rulesOf = (target: unknown) =>
  getMetadataStorage().getTargetValidationMetadatas(target as new () => object, '', false, false);

/** ApiValidationPipe's options. */
const OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: false,
  forbidUnknownValues: true,
  stopAtFirstError: true,
  validationError: { target: false, value: true },
};

const DTOS = requestDtos();

/** Every attribute any class declares (nested DTOs' too: `fields.*.type`, `scheduled.target`). */
const declared = (
  getMetadataStorage() as unknown as {
    validationMetadatas: Map<unknown, { propertyName: string }[]>;
  }
).validationMetadatas;
const KEYS = [
  ...new Set([...declared.values()].flat().map((rule) => rule.propertyName)),
  'junk',
  'admin',
];

const scalar = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom(
    '',
    '  padded  ',
    '1',
    '2,3',
    '0',
    '-1',
    'x',
    'ada@example.test',
    '2030-05-06T10:00',
    '2030-05-06',
    '10:00',
    '5.00',
    'active',
    'true',
    'America/New_York',
    'https://example.com/hook',
    'textbox',
    'dropdown',
    'checkbox',
    'percentage',
    'appointments',
    'appointment.scheduled',
  ),
  fc.integer({ min: -2, max: 5 }),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
);

const { value: hostile } = fc.letrec<{ value: unknown; object: Record<string, unknown> }>(
  (tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('value'), { maxLength: 3 }),
      tie('object'),
    ),
    object: fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 6 }),
  }),
);

const body = fc.dictionary(fc.constantFrom(...KEYS), hostile, { maxKeys: 8 });

/** The outcome as a client sees it: the error, or the DTO built. */
async function outcome(instance: object) {
  const errors = await validate(instance, OPTIONS);
  if (errors.length === 0) return { dto: instance };
  const error = toInvalidAttribute(errors);
  return { error: { code: error.code, message: error.message } };
}

describe('requestDtoTransformer', () => {
  it('finds the API’s request DTOs', () => {
    expect(DTOS.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'BookAppointmentRequest',
        'CreateFormRequest',
        'ListAppointmentsRequest',
      ]),
    );
  });

  it.each(DTOS)(
    'builds %s as class-transformer does, for what validation keeps',
    async (_, dto) => {
      await fc.assert(
        fc.asyncProperty(body, async (plain) => {
          const reference = await outcome(plainToInstance(dto, structuredClone(plain)));
          const copy = structuredClone(plain);
          const built = requestDtoTransformer.plainToInstance(dto, declaredOnly(dto, copy));
          expect(await outcome(built as object)).toStrictEqual(reference);
        }),
        { numRuns: 150 },
      );
    },
  );

  it('leaves out what the DTO does not declare before building it, nested DTOs included', () => {
    const [, form] = DTOS.find(([name]) => name === 'CreateFormRequest')!;
    expect(
      declaredOnly(form, {
        name: 'Intake',
        junk: { a: 1 },
        fields: [{ name: 'Q', type: 'textbox', junk: [1] }, 'x'],
      }),
    ).toEqual({ name: 'Intake', fields: [{ name: 'Q', type: 'textbox' }, 'x'] });
  });

  it('passes kept values on as parsed, without copying them', () => {
    const [, calendar] = DTOS.find(([name]) => name === 'UpdateCalendarRequest')!;
    const overrides = { '2030-01-01': [] };
    const built = requestDtoTransformer.plainToInstance(calendar, { overrides }) as {
      overrides: unknown;
    };
    expect(built).toBeInstanceOf(calendar);
    expect(built.overrides).toBe(overrides);
  });

  it('refuses to build a DTO with what it does not implement (@Expose)', () => {
    class Renamed {
      @Expose({ name: 'first_name' })
      @IsString()
      firstName!: string;
    }
    expect(() => requestDtoTransformer.plainToInstance(Renamed, { first_name: 'Ada' })).toThrow(
      'Renamed: requestDtoTransformer implements no @Expose or @Exclude',
    );
  });
});
