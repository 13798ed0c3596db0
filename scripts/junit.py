#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""JUnit files that say what the runs said, for a CI's test view.

  junit.py ctest BUILD IN.xml OUT.xml
      ctest's JUnit (ctest --output-junit, the test presets' junit.xml) with
      each test's CTest labels added as a property, labels="a;b" (ctest
      writes none), read from `ctest --show-only=json-v1` of BUILD.

  junit.py reframe REPORT.json OUT.xml
      A JUnit of ReFrame's JSON report (--report-file): one testcase per test
      case, with its node when distributed; a failed one <failure> with
      ReFrame's reason, a skipped one <skipped> with the skip's reason
      (ReFrame's own --report-junit counts a skipped test as a pass).

Python's standard library only."""
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def ctest_labels(build, src, dst):
    shown = subprocess.run(['ctest', '--test-dir', build, '--show-only=json-v1'],
                           check=True, capture_output=True, text=True).stdout
    labels = {}
    for t in json.loads(shown)['tests']:
        for p in t.get('properties', []):
            if p['name'] == 'LABELS':
                labels[t['name']] = ';'.join(p['value'])
    tree = ET.parse(src)
    done = 0
    for case in tree.getroot().iter('testcase'):
        name = case.get('name')
        if name in labels:
            props = case.find('properties')
            if props is None:
                props = ET.Element('properties')
                case.insert(0, props)
            ET.SubElement(props, 'property', name='labels', value=labels[name])
            done += 1
    tree.write(dst, encoding='utf-8', xml_declaration=True)
    print(f'junit.py: labels on {done} of {sum(1 for _ in tree.getroot().iter("testcase"))} '
          f'test cases: {dst}')


def reframe(report, dst):
    doc = json.load(open(report, encoding='utf-8'))
    suites = ET.Element('testsuites')
    totals = {'tests': 0, 'failures': 0, 'skipped': 0}
    for i, run in enumerate(doc['runs']):
        suite = ET.SubElement(suites, 'testsuite', name=f'reframe-run{i}')
        counts = {'tests': 0, 'failures': 0, 'skipped': 0}
        for t in run['testcases']:
            name = t['display_name']
            # --distribute names the node in the display name (%.nid=n1).
            nid = re.search(r'%\.nid=(\S+)', name)
            node = nid.group(1) if nid else t.get('job_nodelist') or ''
            case = ET.SubElement(suite, 'testcase', classname=t.get('name', name).split(' ')[0],
                                 name=name, time=f"{t.get('time_total') or 0:.3f}")
            if node:
                props = ET.SubElement(case, 'properties')
                ET.SubElement(props, 'property', name='node', value=str(node))
            result = t.get('result')
            reason = t.get('fail_reason') or ''
            if result == 'skip':
                ET.SubElement(case, 'skipped', message=reason or 'skipped by the test')
                counts['skipped'] += 1
            elif result in ('fail', 'abort'):
                ET.SubElement(case, 'failure', message=reason, type=t.get('fail_phase') or '')
                counts['failures'] += 1
            counts['tests'] += 1
        for k, v in counts.items():
            suite.set(k, str(v))
            totals[k] += v
    for k, v in totals.items():
        suites.set(k, str(v))
    ET.ElementTree(suites).write(dst, encoding='utf-8', xml_declaration=True)
    print(f'junit.py: {totals["tests"]} test cases, {totals["failures"]} failed, '
          f'{totals["skipped"]} skipped: {dst}')


def main(argv):
    if len(argv) == 5 and argv[1] == 'ctest':
        ctest_labels(argv[2], argv[3], argv[4])
    elif len(argv) == 4 and argv[1] == 'reframe':
        reframe(argv[2], argv[3])
    else:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
