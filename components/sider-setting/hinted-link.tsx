import { Anchor, Text } from '@mantine/core';

/** A line on what a page of settings holds, and the link that opens it. */
export function HintedLink({ hint, label, onOpen }: { hint: string; label: string; onOpen: () => void }) {
  return (
    <>
      <Text size="sm" c="dimmed" mb="xs">
        {hint}
      </Text>
      <Anchor component="button" type="button" size="sm" onClick={onOpen}>
        {label}
      </Anchor>
    </>
  );
}
