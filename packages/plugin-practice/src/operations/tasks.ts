import { defineOperation, Params, StringEnum, Type } from '@portico/core/plugin';
import { Bool, ClioId, Day, Fields, Flag, IdFilter, Int, List, Moment, notNull, nullable, PolyRef, Ref, Text } from '../schemas.js';
import { dataOf, family, ONLY_ID, omit, withFields } from './kit/rows.js';

// Tasks: the to-dos with a due date, assigned to users or contacts, usually on a matter; their types, and the task
// template lists (reusable sets of tasks to apply to matters) with their task templates.

const taskBody = {
  assignee: PolyRef('Assignee, as { "id": <id>, "type": "User" | "Contact" }.', ['User', 'Contact']),
  cascading: Bool('Derive the due date from another task (cascading_source).'),
  cascading_offset: Int('How far from the source task’s due date, in cascading_offset_polarity units.'),
  cascading_offset_polarity: StringEnum(['CalendarDays', 'CalendarWeeks', 'CalendarMonths', 'CalendarYears', 'BusinessDays'], {
    description: 'Unit of cascading_offset (Clio’s document lists these values under this name).',
  }),
  cascading_offset_type: StringEnum(['Before', 'After'], {
    description: 'Before or after the source task’s due date (Clio’s document lists these values under this name).',
  }),
  cascading_source: Int('Id of the task the due date derives from.'),
  description: Text('What to do (rich text when description_text_type is rich_text).'),
  description_text_type: StringEnum(['plain_text', 'rich_text'], { description: 'Description text type.' }),
  due_at: Moment('When the task is due'),
  matter: Ref('matter'),
  name: Text('Title of the task.'),
  notify_assignee: Bool('Notify the assignee when the task is created.'),
  notify_completion: Bool('Notify the assigner when the task is completed.'),
  permission: StringEnum(['private', 'public'], { description: 'public (default) or private to the assignee.' }),
  priority: StringEnum(['High', 'Normal', 'Low'], { description: 'High, Normal or Low (default Normal).' }),
  status: StringEnum(['pending', 'in_progress', 'in_review', 'complete'], {
    description: 'pending, in_progress, in_review or complete (without advanced tasks: pending or complete).',
  }),
  statute_of_limitations: Bool('Mark the task as a statute-of-limitations deadline.'),
  task_type: Ref('task type'),
  time_estimated: Int('Estimated time, in seconds.'),
};

const taskTemplateBody = {
  cascading: Bool('Cascading.'),
  cascading_offset: Int('Cascading offset.'),
  cascading_offset_polarity: StringEnum(['Before', 'After'], { description: 'Cascading offset polarity.' }),
  cascading_offset_type: StringEnum(['CalendarDays', 'CalendarWeeks', 'CalendarMonths', 'CalendarYears', 'BusinessDays'], {
    description: 'Cascading offset type.',
  }),
  cascading_source: Ref('cascading source'),
  description: Text('Description.'),
  description_text_type: StringEnum(['plain_text', 'rich_text'], { description: 'Description text type.' }),
  name: Text('Name.'),
  priority: StringEnum(['High', 'Normal', 'Low'], { description: 'Priority.' }),
  private: Bool('Make tasks from the template private.'),
  reminder_templates: List(
    'Reminder templates, as [{ "duration_value": <integer>, "duration_unit": <string>, "notification_type": "Email" | "Popup" }].',
  ),
  task_template_list: Ref('task template list'),
};

export const copyTaskTemplateList = defineOperation({
  name: 'copy_task_template_list',
  method: 'POST',
  path: '/task_template_lists/:id/copy',
  summary: 'Copy a workflow checklist (task template list) to make a variant',
  description: `Copies a task template list (id from list_task_template_lists) with its task templates; name, description and practice_area of the copy are optional. Answers with the copy as data (${ONLY_ID}, sent in the query string, for example fields=id,name).`,
  params: Params({
    id: ClioId('Id of the task template list to copy (from list_task_template_lists).'),
    name: Type.Optional(Text('Name of the copy.')),
    description: Type.Optional(Text('Description of the copy.')),
    practice_area: Type.Optional(Ref('practice area of the copy', 'ids from list_practice_areas')),
    fields: Type.Optional(Fields('id,name,description')),
  }),
  locations: { fields: 'query' },
  upstream: (p) => {
    const data = dataOf(p, ['name', 'description', 'practice_area']);
    return { method: 'POST', path: `/task_template_lists/${p.id}/copy.json`, ...withFields(p.fields), body: { data } };
  },
});

export const tasks = family(
  [
    {
      key: 'tasks',
      path: '/tasks',
      clio: '/tasks',
      record: ['task', 'tasks'],
      summaries: {
        list: 'List tasks (to-dos), such as a matter’s open tasks or what is due',
        get: 'Get a task (to-do) with its assignee and due date',
        create: 'Assign a task (to-do) to a user, such as a paralegal',
        update: 'Update a task (to-do): reassign, reschedule or mark it complete',
        delete: 'Delete a task (to-do)',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Tasks: to-dos with a due date, assigned to users or contacts, usually on a matter.',
      fields: 'id,name,status,priority,due_at,completed_at,matter{id,display_number},assignee{id,name,type}',
      order: 'id(asc)',
      filters: {
        assignee_id: IdFilter('Only tasks assigned to this user or contact (say which with assignee_type).', nullable),
        assignee_type: StringEnum(['user', 'contact'], {
          description: 'Whether assignee_id is a user or a contact; needed with assignee_id.',
        }),
        assigner_id: IdFilter('Only tasks assigned by this user.', nullable),
        cascading_source_id: IdFilter('Only tasks whose due date cascades from this task.', notNull),
        client_id: IdFilter('Only tasks on matters of this client (a contact).', nullable),
        complete: Flag('Only complete (true) or incomplete (false) tasks.'),
        due_at_from: Day('Only tasks with due at on or after this date'),
        due_at_present: Flag('Only tasks with (true) or without (false) a due date.'),
        due_at_to: Day('Only tasks with due at on or before this date'),
        matter_id: IdFilter('Only tasks of this matter.', nullable),
        permission: StringEnum(['private', 'public'], { description: 'Only private or only public tasks.' }),
        priority: StringEnum(['high', 'normal', 'low'], { description: 'Only tasks with this priority.' }),
        query: Text('Wildcard search in name or description.'),
        responsible_attorney_id: IdFilter('Only tasks on matters with this responsible attorney (a user).', notNull),
        status: StringEnum(['pending', 'in_progress', 'in_review', 'complete'], {
          description: 'Only tasks in this status (without advanced tasks: pending or complete).',
        }),
        'statuses[]': Type.Array(StringEnum(['pending', 'in_progress', 'in_review', 'complete']), {
          description: 'Only tasks with one of these statuses values (repeat statuses[] in a query string).',
        }),
        statute_of_limitations: Flag('Only statute-of-limitations tasks (true) or the others (false).'),
        task_type_id: IdFilter('Only tasks of this task type (ids from list_task_types).', nullable),
        time_entries_present: Flag('Only tasks with (true) or without (false) time entries.'),
      },
      body: taskBody,
      // Whether a task is a statute-of-limitations deadline is set when it is created.
      updateBody: omit(taskBody, 'statute_of_limitations'),
      required: ['name', 'description', 'assignee'],
      text: {
        list: 'Lists tasks, the to-dos assigned to the firm’s users or contacts, usually on a matter, with their due dates, priority and status. Filter by matter_id, assignee_id with assignee_type, status (pending, in_progress, in_review, complete), priority, due_at_from/due_at_to, task_type_id or query; appointments are list_calendar_entries.',
        get: 'Returns one task (to-do) with its name, description, assignee, due date, priority and status; the id comes from list_tasks or create_task.',
        create:
          'Creates a task (a to-do) assigned to a user or contact: name, description and assignee ({"id": <user or contact id>, "type": "User" | "Contact"}) are required. matter ({"id": <matter id>}) and due_at put it on a matter’s schedule.',
        update: 'Changes a task (id from list_tasks): mark it done with status complete, move due_at, reassign it or change its priority.',
        delete:
          'Deletes a task (id from list_tasks); to record it as done instead, use update_task with status complete. Answers 204 with no body.',
      },
    },
    {
      key: 'task_types',
      path: '/task_types',
      clio: '/task_types',
      record: ['task_type', 'task_types'],
      summaries: {
        list: 'List task types (categories of tasks)',
        get: 'Get a task type (category of tasks)',
        create: 'Add a task type (category of tasks)',
        update: 'Rename or disable a task type',
      },
      verbs: ['list', 'get', 'create', 'update'],
      about: 'Task types: categories for tasks.',
      fields: 'id,name,enabled',
      order: 'id(asc)',
      filters: {
        enabled: Flag('Only enabled (true) or disabled (false) task types.'),
        name: Text('Only task types with this name.'),
        query: Text('Wildcard search in name.'),
      },
      body: {
        deleted_at: Day('Date the task type was disabled'),
        name: Text('Name.'),
      },
      required: ['name'],
      text: {
        list: 'Lists task types, the categories tasks are sorted into (such as Court filing or Client follow-up). Filter by name, enabled or query; their ids go into a task’s task_type.',
        get: 'Returns one task type (a category of tasks) and whether it is enabled; the id comes from list_task_types.',
        create: 'Creates a task type, a new category for tasks; name is required.',
        update: 'Renames a task type or disables it with deleted_at (id from list_task_types).',
      },
    },
    {
      key: 'task_template_lists',
      path: '/task_template_lists',
      clio: '/task_template_lists',
      record: ['task_template_list', 'task_template_lists'],
      summaries: {
        list: 'List task template lists (workflow checklists for matters)',
        get: 'Get a task template list (workflow checklist)',
        create: 'Create a task template list (workflow checklist)',
        update: 'Change a task template list (workflow checklist)',
        delete: 'Delete a task template list (workflow checklist)',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Task template lists: reusable sets of tasks to apply to matters.',
      fields: 'id,name,description,practice_area{id,name}',
      order: 'id(asc)',
      filters: {
        empty: Flag('Only lists without (true) or with (false) task templates.'),
        practice_area_id: IdFilter('Only task template lists of this practice area.', nullable),
        query: Text('Wildcard search in name.'),
      },
      body: {
        description: Text('Description.'),
        name: Text('Name.'),
        practice_area: Ref('practice area'),
      },
      required: ['name', 'description'],
      text: {
        list: 'Lists task template lists, the reusable workflow checklists of tasks applied to new matters (such as a probate or intake checklist). Filter by practice_area_id, empty or query; the tasks in one are list_task_templates.',
        get: 'Returns one task template list (a workflow checklist) with its name, description and practice area; the id comes from list_task_template_lists.',
        create:
          'Creates a task template list, a reusable checklist of tasks: name and description are required; its tasks are added with create_task_template, and copy_task_template_list starts from an existing one.',
        update: 'Changes the name, description or practice area of a task template list (id from list_task_template_lists).',
        delete:
          'Deletes a task template list, one of the workflow checklists applied to new matters (id from list_task_template_lists). Answers 204 with no body.',
      },
    },
    {
      key: 'task_templates',
      path: '/task_templates',
      clio: '/task_templates',
      record: ['task_template', 'task_templates'],
      summaries: {
        list: 'List the task templates of a workflow checklist',
        get: 'Get a task template of a workflow checklist',
        create: 'Add a task template to a workflow checklist',
        update: 'Change a task template of a workflow checklist',
        delete: 'Remove a task template from a workflow checklist',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Task templates: the tasks of a task template list.',
      fields: 'id,name,description,priority,task_template_list{id,name}',
      order: 'id(asc)',
      filters: {
        priority: StringEnum(['high', 'normal', 'low'], { description: 'Only task templates with this priority.' }),
        query: Text('Wildcard search in name.'),
        task_template_list_id: IdFilter('Only task templates of this task template list.', notNull),
      },
      body: taskTemplateBody,
      // A task template stays in its task template list.
      updateBody: {
        ...omit(taskTemplateBody, 'task_template_list'),
        reminder_templates: List(
          'Reminder templates, as [{ "duration_value": <integer>, "duration_unit": <string>, "notification_type": "Email" | "Popup", "id": <id>, "_destroy": <boolean> }].',
        ),
      },
      required: ['name'],
      text: {
        list: 'Lists task templates, the individual tasks of a reusable checklist, usually of one task template list (task_template_list_id from list_task_template_lists). Filter by priority or query.',
        get: 'Returns one task template with its name, priority and due-date offset; the id comes from list_task_templates.',
        create:
          'Adds a task template to a task template list (task_template_list: {"id": <list id>}); name is required, and cascading fields set its due date relative to another task.',
        update: 'Changes a task template’s name, description, priority or due-date offset (id from list_task_templates).',
        delete: 'Removes a task template from its checklist (id from list_task_templates). Answers 204 with no body.',
      },
    },
  ],
  copyTaskTemplateList,
);
