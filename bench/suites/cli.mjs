export async function cliRows() { return []; }
