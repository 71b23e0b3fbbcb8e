import { Session } from '../modules/auth/session.entity.js';
import { Client } from '../modules/client/client.entity.js';
import { JobTask } from '../modules/jobs/job-task.entity.js';
import { User } from '../modules/user/user.entity.js';

/** Every entity the ORM knows; one list shared by the server, the migration scripts and tests. */
export const entities = [Client, User, Session, JobTask];
