import { Type } from 'typebox';
import { Nullable } from '../../schemas/common.js';

export const EmailAddressSchema = Type.Object({
  address: Nullable(Type.String({ description: "the user's secret email-in address (mail to it becomes an item); null when the server has email-in off" })),
});
