import { defineFind } from './kit/find.js';

// Employees and their time: the staff, and the timesheet entries (time activities) of employees and vendors.

export const findEmployees = defineFind({
  name: 'find_employees',
  path: '/employees',
  entity: 'Employee',
  plural: 'employees',
  about:
    'Searches employees: DisplayName, GivenName, FamilyName, PrimaryEmailAddr, HiredDate, Active (payroll details are not part of this API).',
  where: 'Active = true',
});

export const findTimeActivities = defineFind({
  name: 'find_time_activities',
  path: '/time-activities',
  entity: 'TimeActivity',
  plural: 'time activities (timesheet entries)',
  about:
    'Searches timesheet entries: NameOf (Employee or Vendor), EmployeeRef or VendorRef, CustomerRef, TxnDate, Hours, Minutes, BillableStatus.',
  where: "TxnDate >= '2025-05-01' ORDERBY TxnDate DESC",
});
