import type { components, operations } from './generated/openapi.js';

type Schemas = components['schemas'];
type JsonBodyOf<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type Item = Schemas['Item'];
export type Attachment = Schemas['Attachment'];
/** An item as capture and organize answer it: with `ai`, what the organizer decided (or null). */
export type CapturedItem = Schemas['CapturedItem'];
/** What quick add understands in a text (POST /parse): the fields and the spans. */
export type QuickAdd = Schemas['QuickAdd'];
/** One item of a brain dump as POST /parse with split reads it: quick add's fields plus parent_index and is_completed. */
export type SplitItem = Schemas['SplitItem'];
export type SplitPreview = Schemas['SplitPreview'];
export type ItemPage = Schemas['ItemPage'];
export type ItemStatus = Item['status'];
export type Project = Schemas['Project'];
/** A saved filter: a named query of the filter language (docs/filters.md). */
export type SavedFilter = Schemas['SavedFilter'];
export type Me = Schemas['Me'];
export type Change = Schemas['Change'];
export type ChangePage = Schemas['ChangePage'];
export type BulkResult = Schemas['BulkResult'];
export type Transcription = Schemas['Transcription'];
/** POST /voice/capture's answer: what was heard, and the items it became. */
export type VoiceCapture = operations['captureVoice']['responses'][201]['content']['application/json'];
export type Webhook = Schemas['Webhook'];
export type CreatedWebhook = Schemas['CreatedWebhook'];
export type Delivery = Schemas['Delivery'];
export type DeliveryPage = Schemas['DeliveryPage'];
export type ExportDocument = Schemas['ExportDocument'];
export type ImportResult = Schemas['ImportResult'];
export type Tag = operations['listTags']['responses'][200]['content']['application/json'][number];

export type CaptureInput = JsonBodyOf<operations['capture']>;
export type CaptureBatchInput = JsonBodyOf<operations['captureBatch']>;
export type ItemPatch = JsonBodyOf<operations['updateItem']>;
export type MePatch = JsonBodyOf<operations['updateMe']>;
export type BulkInput = JsonBodyOf<operations['bulkItems']>;
export type ProjectInput = JsonBodyOf<operations['createProject']>;
export type ProjectPatch = JsonBodyOf<operations['updateProject']>;
export type FilterInput = JsonBodyOf<operations['createFilter']>;
export type FilterPatch = JsonBodyOf<operations['updateFilter']>;
export type FilterItemsQuery = QueryOf<operations['listFilterItems']>;
export type WebhookInput = JsonBodyOf<operations['createWebhook']>;
export type ImportDocument = JsonBodyOf<operations['importData']>;

export type ListItemsQuery = QueryOf<operations['listItems']>;
export type SearchQuery = QueryOf<operations['searchItems']>;
export type ChangesQuery = QueryOf<operations['listChanges']>;
export type PageQuery = QueryOf<operations['listProjectItems']>;
export type DeliveriesQuery = QueryOf<operations['listWebhookDeliveries']>;

/** What the pairing exchange hands out once the user approved. */
export type PairResult = operations['exchangePairing']['responses'][200]['content']['application/json'];
export type Scope = PairResult['scopes'][number];

/** A page of a list that pages with `next_cursor` (null on the last page). */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}
