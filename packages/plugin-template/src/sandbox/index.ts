// The sandbox: an emulator of the Acme Tasks API (same paths, auth check, paging and error bodies) over seeded data,
// for the plugin's tests and `portico serve --sandbox`. Loaded only through the plugin's `sandbox` (never in
// production); built on the emulator kit, which serves POST /__sandbox/reset and POST /__sandbox/fail-next.
import type { SandboxOptions, SandboxServer } from '@portico/core/plugin';
import { type EmulatorReply, type EmulatorRequest, type FaultWriter, jsonReply, startEmulator } from '@portico/core/testing/emulator';

/** The token the sandbox accepts (`portico serve --sandbox` connects with it). */
export const SANDBOX_TOKEN = 'sandbox-acmetasks-token';

interface Task {
  id: string;
  title: string;
  status: 'open' | 'done';
  due_on: string | null;
  created_at: string;
}

interface State {
  tasks: Task[]; // newest first
  nextId: number;
}

/** 30 tasks, every third one done; tsk_30 is the newest. */
function seed(): State {
  const tasks: Task[] = [];
  for (let n = 30; n >= 1; n--) {
    const day = String(n).padStart(2, '0');
    tasks.push({
      id: `tsk_${n}`,
      title: `Task number ${n}`,
      status: n % 3 === 0 ? 'done' : 'open',
      due_on: n % 2 === 0 ? `2026-06-${day}` : null,
      created_at: `2026-05-${day}T09:00:00Z`,
    });
  }
  return { tasks, nextId: 31 };
}

/** Acme Tasks' error body. */
const error = (status: number, code: string, message: string): EmulatorReply => jsonReply(status, { error: { code, message } });

/** An injected failure (POST /__sandbox/fail-next) in the same shape. */
const writeFault: FaultWriter = (fault) => {
  const status = fault.status ?? 500;
  return error(status, fault.code ?? (status === 429 ? 'rate_limited' : 'server_error'), fault.message ?? 'Injected failure');
};

function positive(request: EmulatorRequest, name: string, fallback: number, max: number): number | EmulatorReply {
  const text = request.query.get(name);
  if (text === null) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > max) return error(400, 'invalid_parameter', `${name} must be 1 to ${max}`);
  return value;
}

function route(request: EmulatorRequest, state: State): EmulatorReply {
  const { method, path } = request;
  if (method === 'GET' && path === '/v1/tasks') {
    const page = positive(request, 'page', 1, 10_000);
    const perPage = positive(request, 'per_page', 25, 100);
    if (typeof page !== 'number') return page;
    if (typeof perPage !== 'number') return perPage;
    const status = request.query.get('status');
    const matching = status ? state.tasks.filter((task) => task.status === status) : state.tasks;
    const data = matching.slice((page - 1) * perPage, page * perPage);
    return jsonReply(200, { data, page, per_page: perPage, total: matching.length, has_more: page * perPage < matching.length });
  }
  const one = /^\/v1\/tasks\/([^/]+)$/.exec(path);
  if (method === 'GET' && one) {
    const id = decodeURIComponent(one[1] ?? '');
    const task = state.tasks.find((t) => t.id === id);
    return task ? jsonReply(200, { data: task }) : error(404, 'not_found', `No task ${id}`);
  }
  if (method === 'POST' && path === '/v1/tasks') {
    const input = (request.json() as { task?: { title?: unknown; due_on?: unknown } } | undefined)?.task;
    if (typeof input?.title !== 'string' || input.title === '') return error(422, 'invalid_task', 'task.title is required');
    const task: Task = {
      id: `tsk_${state.nextId++}`,
      title: input.title,
      status: 'open',
      due_on: typeof input.due_on === 'string' ? input.due_on : null,
      created_at: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    };
    state.tasks.unshift(task);
    return jsonReply(201, { data: task });
  }
  return error(404, 'not_found', `No route ${method} ${path}`);
}

export function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  return startEmulator<State>({
    ...options, // host (default 127.0.0.1) and port (default: any free one)
    token: SANDBOX_TOKEN,
    basePath: '/v1', // the sandbox's url is http://127.0.0.1:<port>/v1
    seed, // at start and on every POST /__sandbox/reset
    handle: (request, state) => {
      if (request.headers.authorization !== `Bearer ${SANDBOX_TOKEN}`) return error(401, 'unauthorized', 'Invalid API token');
      return route(request, state);
    },
    writeFault,
    onError: () => error(400, 'invalid_json', 'The body is not valid JSON'), // handle threw: here, only request.json()
  });
}
