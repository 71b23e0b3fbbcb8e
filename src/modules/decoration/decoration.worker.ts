/**
 * A decoration worker thread (decoration-pool.ts): holds the sessions of the requests assigned to it
 * and answers one message per phase. Errors go back as {code, message}; AppError's code is kept.
 */
import { parentPort } from 'node:worker_threads';
import { AppError } from '../../shared/errors.js';
import type { WorkerAnswer, WorkerCall } from './decoration-pool.js';
import { DecorationSession } from './decoration-session.js';
import { termCheckJson } from './term-check-phases.js';

const sessions = new Map<number, DecorationSession>();

function run(call: WorkerCall): unknown {
  if (call.op === 'start') {
    const session = new DecorationSession(call.request);
    sessions.set(call.id, session);
    return session.hasWords();
  }
  if (call.op === 'close') return sessions.delete(call.id);
  const session = sessions.get(call.id);
  if (!session) throw new Error(`no decoration session ${call.id}`);
  if (call.op === 'keyInputs') return session.keyInputs(call.language);
  if (call.op === 'spans') return session.spans(call.row);
  sessions.delete(call.id);
  if (call.op === 'answer') return session.answerJson(call.found, call.shape);
  // Term check: this session is the source, its companion in this worker the target.
  const target = sessions.get(call.target.id);
  sessions.delete(call.target.id);
  if (!target) throw new Error(`no decoration session ${call.target.id}`);
  return termCheckJson(session.lookup(call.found), target.lookup(call.target.found), call.targetLang);
}

parentPort!.on('message', (call: WorkerCall) => {
  let answer: WorkerAnswer;
  try {
    answer = { id: call.id, seq: call.seq, value: run(call) };
  } catch (error) {
    if (call.op === 'start') sessions.delete(call.id);
    answer = {
      id: call.id,
      seq: call.seq,
      error:
        error instanceof AppError
          ? { code: error.code, message: error.message }
          : { message: error instanceof Error ? error.message : String(error) },
    };
  }
  // The answer's bytes move to the server's thread (no copy on its heap).
  const bytes = answer.value instanceof Uint8Array ? [answer.value.buffer as ArrayBuffer] : [];
  parentPort!.postMessage(answer, bytes);
});
