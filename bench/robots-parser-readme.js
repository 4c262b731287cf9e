// SPDX-License-Identifier: BSD-2-Clause
// robots-parser used exactly as its README shows (robotsParser(url,
// contents), then isAllowed(url, ua) for each URL), the whole process
// timed from outside: the second harness of `make bench`.  Unlike
// bench/robots-parser.js, it prints only the verdict, one a line (what
// `cut -f1` leaves of robots-audit check's output), so that next to the
// work both do it builds no output lines of check's shape.
// Usage: node robots-parser-readme.js ROBOTS_FILE AGENT URLS_FILE
'use strict';
const fs = require('fs');
const robotsParser = require('robots-parser');
const [robotsFile, agent, urlsFile] = process.argv.slice(2);
const robots = robotsParser('https://example.com/robots.txt',
                            fs.readFileSync(robotsFile, 'utf8'));
let out = '';
let disallowed = 0;
for (const url of fs.readFileSync(urlsFile, 'utf8').split('\n')) {
  if (!url) continue;
  if (robots.isAllowed(url, agent)) {
    out += 'allowed\n';
  } else {
    out += 'disallowed\n';
    disallowed++;
  }
}
process.stdout.write(out);
process.exitCode = disallowed ? 1 : 0;
