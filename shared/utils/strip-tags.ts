/**
 * The product's custom tags (`{product}` and `{product}-a`, for Tandem `<tandem>` and
 * `<tandem-a>`) carry machine data inside a model's answer. They and everything inside them are
 * removed before the text is shown.
 */
export const PRODUCT_TAG_NAMES = ['tandem', 'tandem-a'] as const;

// Longer name first so `<tandem-a>` is not read as `<tandem>` followed by "-a>". Attribute values may
// contain `>` when quoted, so quoted strings are consumed whole.
const TAG_PATTERN = /<(\/?)(tandem-a|tandem)(?=[\s/>])((?:"[^"]*"|'[^']*'|[^'">])*)>/gi;

/**
 * What a streaming text may end with while a custom tag is still arriving: a prefix of `<tandem`,
 * `</tandem-a`, or a complete name whose attributes are not closed yet. Hidden so the reader never
 * sees a half tag flash before it disappears.
 */
const PARTIAL_TAG_AT_END =
  /<\/?(?:t(?:a(?:n(?:d(?:e(?:m(?:-a?)?)?)?)?)?)?)?$|<\/?(?:tandem-a|tandem)(?:[\s/](?:"[^"]*"|'[^']*'|[^'">])*(?:"[^"]*|'[^']*)?)?$/i;

export interface StripTagsOptions {
  /** The text is still growing: a partial custom tag at its end is hidden too. */
  streaming?: boolean;
}

export function stripProductTags(text: string, options: StripTagsOptions = {}): string {
  if (!text.includes('<')) return text;
  // Names of the tags opened and not yet closed, innermost last.
  const open: string[] = [];
  let out = '';
  let last = 0;
  TAG_PATTERN.lastIndex = 0;
  for (let m = TAG_PATTERN.exec(text); m; m = TAG_PATTERN.exec(text)) {
    if (open.length === 0) out += text.slice(last, m.index);
    last = m.index + m[0].length;
    const closing = m[1] === '/';
    const name = m[2].toLowerCase();
    const selfClosing = !closing && m[3].trimEnd().endsWith('/');
    if (closing) {
      // Close up to the matching opener; a stray closer with no opener is simply dropped.
      const at = open.lastIndexOf(name);
      if (at >= 0) open.length = at;
    } else if (!selfClosing) {
      open.push(name);
    }
  }
  // An opener still unclosed at the end hides everything after it: its contents are arriving.
  if (open.length > 0) return out;
  let tail = text.slice(last);
  if (options.streaming) tail = tail.replace(PARTIAL_TAG_AT_END, '');
  return out + tail;
}
