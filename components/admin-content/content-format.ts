import dayjs from 'dayjs';

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
export const formatTime = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '');
