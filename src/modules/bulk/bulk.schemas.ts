import { Type, type Static } from 'typebox';
import { Uuid } from '../../schemas/common.js';
import { PatchItemBody } from '../items/items.schemas.js';

const BULK_MAX_IDS = 100;

const BulkOpSchema = Type.Union(
  [Type.Literal('toggle'), Type.Literal('archive'), Type.Literal('unarchive'), Type.Literal('delete'), Type.Literal('move'), Type.Literal('update')],
  { description: 'toggle | archive | unarchive | delete | move | update (the PATCH fields in payload, applied to each id)' },
);

/** The fields of a PATCH, which `update` applies to each id; project_id is shared with move. */
const { project_id: _patchProject, ...patchFields } = PatchItemBody.properties;

export const BulkBody = Type.Object({
  op: BulkOpSchema,
  ids: Type.Array(Uuid, {
    minItems: 1,
    maxItems: BULK_MAX_IDS,
    description: '1 to 100 item ids; an id listed twice is handled and counted once',
  }),
  payload: Type.Optional(
    Type.Object(
      {
        is_completed: Type.Optional(Type.Boolean({ description: 'toggle: set this value instead of flipping' })),
        project_id: Type.Optional(Type.String({ format: 'uuid', description: 'move: the target project (required for move); update: move there too' })),
        ...patchFields,
      },
      { description: 'options of the op (update: the PATCH fields, at least one); fields another op does not use are ignored' },
    ),
  ),
});
export type BulkBody = Static<typeof BulkBody>;

export const BulkFailureSchema = Type.Object({
  id: Type.String({ description: 'the id as sent' }),
  error: Type.String({ description: 'stable error code, e.g. not_found' }),
  message: Type.String(),
});
export type BulkFailure = Static<typeof BulkFailureSchema>;

export const BulkResultSchema = Type.Object(
  {
    ok: Type.Boolean({ description: 'true when failures is empty' }),
    updated: Type.Integer({ minimum: 0, description: 'distinct ids the op succeeded on, including those it left unchanged' }),
    failures: Type.Array(BulkFailureSchema),
  },
  { $id: 'BulkResult', title: 'BulkResult' },
);
export type BulkResult = Static<typeof BulkResultSchema>;
