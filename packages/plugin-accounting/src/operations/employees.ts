import { defineFind } from './kit/find.js';

// Employees and their time: the staff, and the timesheet entries (time activities) of employees and vendors.

export const findEmployees = defineFind({
  name: 'find_employees',
  path: '/employees',
  entity: 'Employee',
  summary: 'Find employees (attorneys and staff) on the books',
  about:
    'Finds the employees on the books, attorneys and staff, with DisplayName, GivenName, FamilyName, PrimaryEmailAddr, HiredDate and Active; payroll details are not part of this API. Their ids are the EmployeeRef of time activities.',
  where: 'Active = true',
});

export const findTimeActivities = defineFind({
  name: 'find_time_activities',
  path: '/time-activities',
  entity: 'TimeActivity',
  summary: 'Find timesheets (time activities) of employees and vendors in the books',
  about:
    "Finds time activities, the books' timesheet entries of employees or vendors, with NameOf (Employee or Vendor), EmployeeRef or VendorRef, CustomerRef, TxnDate, Hours, Minutes and BillableStatus. These are the books' timesheets, not the time entries kept in the practice management system (Clio's list_activities).",
  where: "TxnDate >= '2025-05-01' ORDERBY TxnDate DESC",
});
