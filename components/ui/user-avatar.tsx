import { useState, type CSSProperties } from 'react';

/**
 * A person's picture in a circle, or their initials on a coloured circle when they have none (or it
 * does not load). A plain element rather than Mantine's Avatar: the sidebar and the popup show it on
 * their first screen, whose bundle stays small.
 */

/**
 * Colours of the initials' circle: white on each one's darkest shade reads at 5:1 or more in both
 * schemes (green's and orange's darkest are under 4.5:1, so they are left out).
 */
const COLORS = ['blue', 'cyan', 'grape', 'indigo', 'pink', 'red', 'teal', 'violet'] as const;

/** The characters of a text, surrogate pairs kept whole. */
const chars = (text: string) => Array.from(text);

/**
 * Up to two initials: of the first two words of the nickname (the first character of a one-word
 * name, e.g. a Chinese one), else of the e-mail's name part; '?' with neither.
 */
export function initialsOf(name: string | null | undefined, email?: string | null): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) return (chars(words[0]!)[0]! + chars(words[1]!)[0]!).toUpperCase();
  if (words.length === 1) return chars(words[0]!)[0]!.toUpperCase();
  const local = (email ?? '').split('@')[0]!.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return local ? initialsOf(local) : '?';
}

/** The circle's colour for a person: always the same one for the same e-mail (or name). */
export function avatarColor(seed: string): (typeof COLORS)[number] {
  let hash = 0;
  for (const c of seed) hash = (Math.imul(hash, 31) + c.codePointAt(0)!) | 0;
  return COLORS[Math.abs(hash) % COLORS.length]!;
}

export interface UserAvatarProps {
  /** The picture's full address; none (or one that fails to load) shows the initials. */
  src?: string | null;
  name?: string | null;
  email?: string | null;
  /** Width and height in pixels. */
  size?: number;
  /** The picture is on its way: an empty circle rather than initials that would flash. */
  pending?: boolean;
  /** Read out when given; otherwise the avatar is decoration beside the name it stands for. */
  label?: string;
  testId?: string;
  style?: CSSProperties;
}

export function UserAvatar({ src, name, email, size = 32, pending = false, label, testId, style }: UserAvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const picture = src && failed !== src ? src : null;
  const color = avatarColor((email || name || '').toLowerCase());
  return (
    <span
      data-testid={testId}
      data-avatar={picture ? 'picture' : pending ? 'pending' : 'initials'}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      style={{
        width: size,
        height: size,
        borderRadius: '50%',
        flexShrink: 0,
        overflow: 'hidden',
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        fontWeight: 600,
        fontSize: Math.round(size * 0.4),
        lineHeight: 1,
        userSelect: 'none',
        background: picture || pending ? 'var(--mantine-color-default-border)' : `var(--mantine-color-${color}-9)`,
        color: 'var(--mantine-color-white)',
        ...style,
      }}
    >
      {picture ? (
        <img src={picture} alt="" width={size} height={size} style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }} onError={() => setFailed(picture)} />
      ) : pending ? null : (
        initialsOf(name, email)
      )}
    </span>
  );
}
