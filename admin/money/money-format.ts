import dayjs from 'dayjs';

export const formatTime = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '');

/** Plan levels by number, as the tables name them (the keys of adminMoney.levels). */
const LEVEL_KEYS = ['free', 'standard', 'advanced', 'super'] as const;
export const levelKey = (level: number | null) => `adminMoney.levels.${LEVEL_KEYS[level ?? 0] ?? 'free'}`;

