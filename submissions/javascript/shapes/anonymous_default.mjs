// `export default class { ... }`: an anonymous class as the default export.

import impl from './_router.cjs';

export default class extends impl.Router {}
export const h32 = impl.h32;
