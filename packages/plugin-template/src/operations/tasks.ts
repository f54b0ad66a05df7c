// The tasks family: every operation on Acme Tasks' tasks. A bigger API has one such file per resource family.
import { DateString, defineOperation, IntegerString, Params, StringEnum, Type } from '@portico/core/plugin';
import { Task } from '../schemas.js';

/** The upstream wraps single objects as `{ "data": … }`; the gateway answers with the object itself. */
const unwrap = (body: unknown): unknown => (body as { data?: unknown }).data;

export const listTasks = defineOperation({
  name: 'list_tasks',
  method: 'GET',
  path: '/tasks',
  summary: 'List to-do tasks, open or done, newest first',
  description:
    'Lists the to-do items of the Acme Tasks account, newest first, optionally only the open or done ones ' +
    '(status). Paged: pass page (1, 2, …) and per_page (at most 100); has_more is true while another page follows.',
  params: Params({
    page: Type.Optional(IntegerString({ minimum: 1, default: '1', description: 'Page number, from 1.' })),
    per_page: Type.Optional(IntegerString({ minimum: 1, maximum: 100, default: '25', description: 'Tasks per page.' })),
    status: Type.Optional(StringEnum(['open', 'done'] as const, { description: 'Only tasks with this status.' })),
  }),
  example: { status: 'open', per_page: '10' },
  // Declarative: the params go to the upstream query string (GET), unchanged.
  upstream: { method: 'GET', path: '/tasks' },
});

export const getTask = defineOperation({
  name: 'get_task',
  method: 'GET',
  path: '/tasks/:task_id',
  summary: "Get a to-do task's title, status and due date",
  description: 'Returns one to-do item with its title, status and due date. task_id is the id field of a list_tasks or create_task result.',
  params: Params({ task_id: Type.String({ minLength: 1, description: 'Task id, e.g. tsk_1.' }) }),
  response: Task,
  example: { task_id: 'tsk_1' },
  upstream: { method: 'GET', path: '/tasks/:task_id' },
  transform: unwrap,
});

export const createTask = defineOperation({
  name: 'create_task',
  method: 'POST',
  path: '/tasks',
  summary: 'Create a to-do task with an optional due date',
  description:
    'Adds an open to-do item with a title and, optionally, a due date (due_on). The answer is the new task with ' +
    'its id, which get_task takes.',
  params: Params({
    title: Type.String({ minLength: 1, maxLength: 200, description: 'What is to be done.' }),
    due_on: Type.Optional(DateString({ description: 'Due date, YYYY-MM-DD.' })),
  }),
  response: Task,
  example: { title: 'Call the landlord', due_on: '2026-07-01' },
  // A function: the upstream wants the fields inside a `task` object.
  upstream: (params) => ({ method: 'POST', path: '/tasks', body: { task: { title: params.title, due_on: params.due_on } } }),
  transform: unwrap,
});
