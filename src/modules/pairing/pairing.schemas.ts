import { Type } from 'typebox';
import { StringEnum, UtcTimestamp, Uuid } from '../../schemas/common.js';
import { MAX_EXPIRY_DAYS } from '../keys/keys.service.js';
import { SCOPES } from '../keys/scopes.js';
import { LABEL_MAX, STATE_PATTERN } from './pairing.service.js';

const State = Type.String({ pattern: STATE_PATTERN, description: 'single-use, 32 characters from A-Z a-z 0-9 _ - (e.g. 24 random bytes as base64url)' });

export const StartBody = Type.Object({
  state: State,
  label: Type.String({
    minLength: 1,
    maxLength: LABEL_MAX,
    pattern: '\\S',
    description: 'names the client on the approval page and the key it gets; 1..100 characters',
  }),
  scopes: Type.Optional(
    Type.Array(StringEnum(SCOPES), {
      minItems: 1,
      maxItems: 20,
      description: 'what the key may do (default: all four); the user may untick any of them on the approval page',
    }),
  ),
  expires_in_days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_EXPIRY_DAYS,
      description: 'the key stops working this many whole days after it is minted (default: never); the approval page says so',
    }),
  ),
});

export const StartResponse = Type.Object(
  {
    ok: Type.Literal(true),
    expires_at: Type.Unsafe<string>({ ...UtcTimestamp, description: 'when the approval link and the exchange stop working (10 minutes)' }),
  },
  { description: 'started; send the user to {base_url}/connect/agent?state=<state> and poll the exchange' },
);

export const ExchangeBody = Type.Object({ state: State });

export const ExchangeResponse = Type.Object(
  {
    token: Type.String({ description: 'a normal bearer API key, cin_<prefix>_<secret>; shown only in this response' }),
    key_id: Type.Unsafe<string>({ ...Uuid, description: 'the id of the key, as developer settings show it' }),
    scopes: Type.Array(StringEnum(SCOPES), { description: 'what the user granted: the asked-for scopes, minus any the user unticked' }),
    expires_at: Type.Union([Type.Unsafe<string>(UtcTimestamp), Type.Null()], {
      description: 'when the key stops working (expires_in_days at start); null: never',
    }),
  },
  { description: 'approved: the key, minted now and handed out exactly once' },
);
