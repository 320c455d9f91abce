import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../shared/api/request.ts';
import { Codes } from '../../shared/contracts/envelope.ts';

/**
 * The one query cache of a page. Only transport failures (10500: network, bad gateway...) are
 * retried: a handled outcome (not logged in, not found, ...) answers the same the second time.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => failures < 2 && error instanceof ApiError && error.code === Codes.ServerError,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
