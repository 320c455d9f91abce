import { Icon, type IconProps } from '../ui/icons.tsx';

/** The favourites star: an outline when the answer is not saved, filled when it is. */
export function IconStar({ filled = false, ...rest }: IconProps & { filled?: boolean }) {
  return <Icon paths={['M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z']} fill={filled ? 'currentColor' : 'none'} {...rest} />;
}
