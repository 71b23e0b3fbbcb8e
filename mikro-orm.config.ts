import { loadConfig } from './src/config.js';
import { ormOptions } from './src/db/orm.js';

/** For tools that look for a MikroORM config file; needs DATABASE_URL (the embedded server is started by the app). */
const url = loadConfig().DATABASE_URL;
if (!url) throw new Error('mikro-orm.config.ts needs DATABASE_URL');
export default ormOptions(url);
