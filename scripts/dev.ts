/**
 * `npm run dev`: the server with reload (tsx watch) and the web application with reload (Vite's dev
 * server at http://localhost:5173, which passes /api, /trpc and /graphql to the server).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const port = process.env.PORT ?? '8080';
process.env.POLYTERM_URL ??= `http://127.0.0.1:${port}`;

const server = spawn('npx', ['tsx', 'watch', 'src/server.ts'], { stdio: 'inherit' });
const web = await createServer({
  configFile: fileURLToPath(new URL('../web/vite.config.ts', import.meta.url)),
});
await web.listen();
web.printUrls();

const stop = async () => {
  server.kill('SIGTERM');
  await web.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => {
  void web.close().then(() => process.exit(code ?? 0));
});
