import type { SeenRequest } from './http-server.ts';

/**
 * The fields and files of a multipart request the test server received (AddChatMedia). The body
 * was recorded as UTF-8 text: text files come back exactly, binary ones only by name and type.
 */
export function formOf(req: SeenRequest): Promise<FormData> {
  return new Response(req.body, { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
}

/** A form's text fields, for comparing with toEqual; files are left out. */
export function fieldsOf(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  form.forEach((value, key) => {
    if (typeof value === 'string') fields[key] = value;
  });
  return fields;
}
