import dayjs from 'dayjs';

export const formatTime = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '');
