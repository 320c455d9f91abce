import type { Memory, Personalization } from '../../../shared/contracts/personalization.ts';
import { answer, fakeApi, type Route } from '../../helpers/fake-api.ts';
import type { Handler } from '../../helpers/http-server.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';

/** The server's personalization and memories for one test, as the fake API keeps them. */
export type FakeState = { form: Personalization; memories: Memory[]; nextId: number };

export const freshState = (form: Partial<Personalization> = {}): FakeState => ({
  form: { enabled: true, occupation: '', traits: '', otherInfo: '', answerLanguage: null, memoryEnabled: true, onboarding: 'pending', ...form },
  memories: [],
  nextId: 1,
});

/** What the real server would add, in the same spirit (the client shows it as it comes). */
export const promptOf = (s: FakeState) =>
  [s.form.enabled && s.form.occupation ? `Occupation: ${s.form.occupation}` : '', ...(s.form.memoryEnabled ? s.memories.map((m) => `- ${m.fact}`) : [])]
    .filter(Boolean)
    .join('\n');

const body = (raw: string) => JSON.parse(raw || '{}') as Record<string, unknown>;

/** The personalization and memory routes over `state()`. */
export function fakePersonalizationApi(state: () => FakeState, extra: Record<string, Route> = {}): Handler {
  const memory = (fact: string, sourceMessageId: string | null): Memory => ({
    memoryId: `m${state().nextId++}`,
    fact,
    sourceMessageId,
    createTime: '2026-11-25T10:00:00.000Z',
    updateTime: '2026-11-25T10:00:00.000Z',
  });
  return fakeApi({
    '/api/Personalization/Get': (_req, res) => sendEnvelope(res, { Code: 10000, Data: state().form }),
    '/api/Personalization/Save': (req, res) => {
      const s = state();
      s.form = { ...s.form, ...body(req.body) } as Personalization;
      sendEnvelope(res, { Code: 10000, Data: s.form });
    },
    '/api/Personalization/GetSystemPrompt': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { text: promptOf(state()), maxChars: 4000, omittedMemories: 0 } }),
    '/api/Memory/GetList': (_req, res) => {
      const s = state();
      sendEnvelope(res, { Code: 10000, Data: { list: s.memories, total: s.memories.length, max: 50, enabled: s.form.memoryEnabled } });
    },
    '/api/Memory/Save': (req, res) => {
      const { fact, sourceMessageId } = body(req.body) as { fact: string; sourceMessageId?: string };
      const m = memory(fact, sourceMessageId ?? null);
      state().memories.unshift(m);
      sendEnvelope(res, { Code: 10000, Data: m });
    },
    '/api/Memory/Update': (req, res) => {
      const { memoryId, fact } = body(req.body) as { memoryId: string; fact: string };
      const m = state().memories.find((x) => x.memoryId === memoryId)!;
      m.fact = fact;
      sendEnvelope(res, { Code: 10000, Data: m });
    },
    '/api/Memory/Delete': (req, res) => {
      const { memoryId } = body(req.body) as { memoryId: string };
      state().memories = state().memories.filter((m) => m.memoryId !== memoryId);
      answer()(req, res, new URL(req.url, 'http://x'));
    },
    '/api/Memory/DeleteAll': (req, res) => {
      state().memories = [];
      answer()(req, res, new URL(req.url, 'http://x'));
    },
    '/api/Memory/SetEnabled': (req, res) => {
      const s = state();
      s.form = { ...s.form, memoryEnabled: body(req.body).enabled as boolean };
      sendEnvelope(res, { Code: 10000, Data: s.form });
    },
    ...extra,
  });
}
