// @joplin/turndown-plugin-gfm ships no types: the part of it the MCD import uses.
declare module "@joplin/turndown-plugin-gfm" {
  import type TurndownService from "turndown";
  type Plugin = (service: TurndownService) => void;
  const gfm: { gfm: Plugin; tables: Plugin; strikethrough: Plugin; taskListItems: Plugin };
  export default gfm;
}
