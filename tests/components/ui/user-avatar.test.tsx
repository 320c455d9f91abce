import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { avatarColor, initialsOf, UserAvatar } from '../../../components/ui/user-avatar.tsx';

/** A person's picture, or their initials on a coloured circle when there is none or it fails. */

describe('initials', () => {
  it('come from the nickname, else from the e-mail’s name part', () => {
    expect(initialsOf('Alice', 'alice@example.com')).toBe('A');
    expect(initialsOf('mary ann lee', 'm@example.com')).toBe('MA');
    expect(initialsOf('张三', 'zhang@example.com')).toBe('张');
    expect(initialsOf('  ', 'john.doe@example.com')).toBe('JD');
    expect(initialsOf(null, 'bob@example.com')).toBe('B');
    expect(initialsOf('😀 smile')).toBe('😀S');
    expect(initialsOf('', '')).toBe('?');
  });

  it('sit on a colour that is always the same for the same person', () => {
    expect(avatarColor('alice@example.com')).toBe(avatarColor('alice@example.com'));
    const colours = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((c) => avatarColor(`${c}@example.com`)));
    expect(colours.size).toBeGreaterThan(2);
  });
});

describe('UserAvatar', () => {
  it('shows the picture, and the initials when it does not load', () => {
    render(<UserAvatar src="https://tandem.example.com/api/Account/GetHeadImg?headImgId=x" name="Alice" email="alice@example.com" size={40} testId="avatar" />);
    const avatar = screen.getByTestId('avatar');
    expect(avatar).toHaveAttribute('data-avatar', 'picture');
    expect(avatar.querySelector('img')).toHaveAttribute('src', 'https://tandem.example.com/api/Account/GetHeadImg?headImgId=x');
    expect(avatar).toHaveAttribute('aria-hidden', 'true');
    fireEvent.error(avatar.querySelector('img')!);
    expect(avatar).toHaveAttribute('data-avatar', 'initials');
    expect(avatar).toHaveTextContent(/^A$/);
    expect(avatar.style.width).toBe('40px');
  });

  it('is read out only when labelled', () => {
    render(<UserAvatar name="Bob" label="Your picture" />);
    expect(screen.getByRole('img', { name: 'Your picture' })).toHaveTextContent('B');
  });
});
