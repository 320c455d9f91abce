import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Primary #7b7ddb (shade 4 here), secondary #F7F7FF. */
const primary: MantineColorsTuple = [
  '#f1f1fb', '#e0e0f6', '#bfc0ee', '#9c9ee5', '#7b7ddb', '#6a6cd6', '#5f61d4', '#4f51bc', '#4547a9', '#383a96',
];
const secondary: MantineColorsTuple = [
  '#F7F7FF', '#ececfb', '#d8d8f2', '#c2c2ea', '#afafe2', '#a2a2dd', '#9b9bdb', '#8787c3', '#7979af', '#69699c',
];

/** Font size 14, radius 6, control height 32 (set in theme.css). */
export const theme = createTheme({
  primaryColor: 'primary',
  // White on the brand's #7b7ddb is 3.7:1; the dark scheme's buttons and bubbles take a deeper shade (5.1:1).
  primaryShade: { light: 4, dark: 6 },
  colors: { primary, secondary },
  fontSizes: { sm: '14px' },
  defaultRadius: 6,
  radius: { sm: '6px' },
  components: {
    Button: { defaultProps: { size: 'sm' } },
    TextInput: { defaultProps: { size: 'sm' } },
  },
});

/** The dark scheme's secondary text and links, lighter than Mantine's, so they read at 4.5:1 on its surfaces. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {},
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1],
    '--mantine-color-anchor': t.colors.primary[2],
  },
});
