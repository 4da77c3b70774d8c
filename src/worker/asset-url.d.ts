/** Vite's `?url` import (with `&no-inline`): the URL of the file, emitted as an asset. */
declare module '*?url&no-inline' {
  const url: string;
  export default url;
}
