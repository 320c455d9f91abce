import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Primary #7b7ddb (shade 4 here; text on it and in it takes shade 6), secondary #F7F7FF. */
const primary: MantineColorsTuple = [
  '#f1f1fb', '#e0e0f6', '#bfc0ee', '#9c9ee5', '#7b7ddb', '#6a6cd6', '#5f61d4', '#4f51bc', '#4547a9', '#383a96',
];
const secondary: MantineColorsTuple = [
  '#F7F7FF', '#ececfb', '#d8d8f2', '#c2c2ea', '#afafe2', '#a2a2dd', '#9b9bdb', '#8787c3', '#7979af', '#69699c',
];

/** Font size 14, radius 6, control height 32 (set in theme.css). */
export const theme = createTheme({
  primaryColor: 'primary',
  // White on the brand's #7b7ddb is 3.6:1, below the 4.5:1 text needs: buttons, bubbles and links take a
  // deeper shade in both schemes (#5f61d4: 5.1:1 with white). The brand colour stays on icons and marks.
  primaryShade: { light: 6, dark: 6 },
  colors: { primary, secondary },
  fontSizes: { sm: '14px' },
  defaultRadius: 6,
  radius: { sm: '6px' },
  components: {
    Button: { defaultProps: { size: 'sm' } },
    TextInput: { defaultProps: { size: 'sm' } },
  },
});

/**
 * Secondary text reads at 4.5:1 on each scheme's surfaces: darker than Mantine's gray in the light
 * scheme (#868e96 is 3.3:1 on white), lighter in the dark one, with the dark scheme's links too.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#666d75',
  },
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1],
    '--mantine-color-anchor': t.colors.primary[2],
  },
});
