import { Ajv } from 'ajv';
import fastJson from 'fast-json-stringify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { Nullable } from '../../src/schemas/common.js';

const ajv = new Ajv({ strict: false });
const accepts = (schema: object, value: unknown) => ajv.validate(schema, value);

describe('Nullable', () => {
  it('gives a primitive schema a type list, which the serializer handles without validating', () => {
    const schema = Nullable(Type.String({ minLength: 2 }));
    expect(schema).toMatchObject({ type: ['string', 'null'], minLength: 2 });
    expect(accepts(schema, null)).toBe(true);
    expect(accepts(schema, 'ok')).toBe(true);
    expect(accepts(schema, 'x')).toBe(false);
    expect(accepts(schema, 3)).toBe(false);
    const serialize = fastJson(Type.Object({ a: schema, b: schema }));
    expect(JSON.parse(serialize({ a: 'text', b: null }))).toEqual({ a: 'text', b: null });
  });

  it('keeps anyOf for an enum, which would otherwise reject null', () => {
    const schema = Nullable(Type.Unsafe<'a' | 'b'>({ type: 'string', enum: ['a', 'b'] }));
    expect(accepts(schema, null)).toBe(true);
    expect(accepts(schema, 'a')).toBe(true);
    expect(accepts(schema, 'c')).toBe(false);
  });

  it('keeps anyOf for a union', () => {
    const schema = Nullable(Type.Union([Type.Literal('x'), Type.Literal('y')]));
    expect(accepts(schema, null)).toBe(true);
    expect(accepts(schema, 'y')).toBe(true);
    expect(accepts(schema, 'z')).toBe(false);
  });
});
