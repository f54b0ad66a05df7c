// Shapes that several operations share.
import { StringEnum, Type } from '@portico/core/plugin';

/** One task, as the upstream returns it (the response schema of get_task and create_task). */
export const Task = Type.Object({
  id: Type.String(),
  title: Type.String(),
  status: StringEnum(['open', 'done'] as const),
  due_on: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});
