import { Type } from 'typebox';

export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description: 'the ETag you last read (or *): the change is made only if the item still has it, else 412 precondition_failed and nothing changes',
    }),
  ),
});

export const IfNoneMatchHeaders = Type.Object({
  'if-none-match': Type.Optional(Type.String({ description: 'the ETag you hold: 304 without a body when the item still has it' })),
});
