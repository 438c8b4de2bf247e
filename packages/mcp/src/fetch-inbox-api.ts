import { InboxApiError, type BulkResult, type CapturedItem, type InboxApi, type Item, type ItemPage, type Me, type Project } from './inbox-api.js';

export interface InboxApiOptions {
  /** Where the service is, e.g. https://inbox.example.com (the /api/v1 prefix is added here). */
  baseUrl: string;
  /** An API key, cin_…; sent as Authorization: Bearer. */
  token: string;
  /** The transport of every call; the service's own /mcp passes one that calls the app in-process. */
  fetch?: (request: Request) => Promise<Response>;
}

type Query = Record<string, string | number | boolean | undefined>;

const queryString = (query: Query): string => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
};

const path = (id: string): string => encodeURIComponent(id);

interface ErrorBody {
  error?: unknown;
  message?: unknown;
  details?: unknown;
}

async function failure(response: Response): Promise<InboxApiError> {
  let body: ErrorBody = {};
  try {
    body = (await response.json()) as ErrorBody;
  } catch {
    // A non-JSON error (a proxy's page) still has a status worth naming.
  }
  const code = typeof body.error === 'string' ? body.error : `http_${response.status}`;
  const message = typeof body.message === 'string' ? body.message : response.statusText || 'request failed';
  const details = Array.isArray(body.details) ? (body.details as Array<{ field: string; message: string }>) : undefined;
  return new InboxApiError(response.status, code, message, details);
}

/** The port over plain fetch, one API call per method, no retries (a tool answers at once). */
export function createFetchInboxApi(options: InboxApiOptions): InboxApi {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((request: Request) => fetch(request));

  async function call<T>(method: string, route: string, body?: unknown): Promise<{ data: T; headers: Headers }> {
    const headers: Record<string, string> = { authorization: `Bearer ${options.token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await doFetch(new Request(`${base}/api/v1${route}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }));
    if (!response.ok) throw await failure(response);
    return { data: (await response.json()) as T, headers: response.headers };
  }
  const get = async <T>(route: string): Promise<T> => (await call<T>('GET', route)).data;
  const send = async <T>(method: string, route: string, body?: unknown): Promise<T> => (await call<T>(method, route, body)).data;

  return {
    me: () => get<Me>('/me'),
    capture: (input) => send<CapturedItem>('POST', '/capture', input),
    search: ({ q, ...filters }) => get<ItemPage>(`/items/search${queryString({ q, ...filters })}`),
    listItems: (input) => get<ItemPage>(`/items${queryString(input)}`),
    async listProjectItems(projectId, input) {
      const { data, headers } = await call<Item[]>('GET', `/projects/${path(projectId)}/items${queryString(input)}`);
      return { items: data, next_cursor: headers.get('x-next-cursor') };
    },
    getItem: (id) => get<Item>(`/items/${path(id)}`),
    updateItem: (id, patch) => send<Item>('PATCH', `/items/${path(id)}`, patch),
    setCompleted: (id, done) => send<BulkResult>('POST', '/items/bulk', { op: 'toggle', ids: [id], payload: { is_completed: done } }),
    archiveItem: (id) => send<Item>('POST', `/items/${path(id)}/archive`),
    organizeItem: (id) => send<CapturedItem>('POST', `/items/${path(id)}/organize`),
    listProjects: async () => (await get<{ projects: Project[] }>('/projects')).projects,
  };
}
