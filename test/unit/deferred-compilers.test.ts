import { describe, expect, it } from 'vitest';
import { reachable } from '../../src/plugins/deferred-compilers.js';

describe('the shared schemas a response serializer is given', () => {
  const shared = {
    Item: { $id: 'Item', type: 'object', properties: { tags: { $ref: 'Tag#' }, parent: { $ref: 'Item#' } } },
    Tag: { $id: 'Tag', type: 'string' },
    Page: { $id: 'Page', type: 'object', properties: { items: { type: 'array', items: { $ref: 'Item#' } } } },
    Error: { $id: 'Error', type: 'object' },
  };

  it('are those it refers to, directly or through each other, and no others', () => {
    const schema = { 200: { $ref: 'Page#' }, 404: { $ref: 'Error#/properties/x' } };
    expect(Object.keys(reachable(schema, shared)).sort()).toEqual(['Error', 'Item', 'Page', 'Tag']);
    expect(Object.keys(reachable({ 200: { $ref: 'Tag#' } }, shared))).toEqual(['Tag']);
  });

  it('are none for a schema without shared references, and never an unknown or local one', () => {
    expect(reachable({ 200: { type: 'object', properties: { ok: { type: 'boolean' } } } }, shared)).toEqual({});
    expect(reachable({ 200: { $ref: '#/definitions/x' }, 201: { $ref: 'Missing#' }, 202: { $ref: 'constructor#' } }, shared)).toEqual({});
  });
});
