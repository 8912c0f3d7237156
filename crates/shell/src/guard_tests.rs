use super::*;

const DANGEROUS: &[&str] = &[
    "rm -rf /",
    "rm -fr /",
    "rm -r -f /",
    "rm --recursive --force /",
    "rm   -rf    /  ",
    "rm -rf /*",
    "rm -rf //",
    "rm -rf /.",
    "rm -rf ~",
    "rm -rf ~/",
    "rm -rf ~/*",
    "rm -rf $HOME",
    "rm -rf \"$HOME\"",
    "rm -rf ${HOME}/*",
    "rm -R /usr",
    "rm -rf -- /",
    "rm -rf --no-preserve-root /",
    "rm -rf / --no-preserve-root",
    "sudo rm -rf /",
    "sudo -u root rm -rf /etc",
    "/bin/rm -rf /",
    "\\rm -rf /",
    "command rm -rf '/'",
    "env FOO=1 rm -rf /",
    "FOO=1 rm -rf /",
    "ls; rm -rf /",
    "true && rm -rf /",
    "false || rm -rf ~",
    "echo hi | xargs rm -rf /",
    "(rm -rf /)",
    "{ rm -rf /; }",
    "bash -c 'rm -rf /'",
    "sh -c \"rm -rf ~\"",
    "bash -lc 'cd / && rm -rf /*'",
    "echo $(rm -rf /)",
    "echo `rm -rf /`",
    "eval \"rm -rf /\"",
    "timeout 5 rm -rf /",
    ":(){ :|:& };:",
    ":(){:|:&};:",
    ":() { : | : & } ; :",
    "bomb(){ bomb|bomb& }; bomb",
    "mkfs.ext4 /dev/sda1",
    "sudo mkfs -t xfs /dev/nvme0n1",
    "dd if=/dev/zero of=/dev/sda bs=1M",
    "dd if=image.iso of=/dev/nvme0n1",
    "dd if=/dev/urandom of=/dev/mmcblk0",
    "echo x > /dev/sda",
    "cat img >/dev/nvme0n1p1",
    "wipefs -a /dev/sdb",
    "chmod -R 777 /",
    "chmod 777 -R /",
    "chmod --recursive 777 /etc",
    "sudo chown -R nobody /",
    "chgrp -R users /",
    "git push --force",
    "git push -f origin main",
    "git push origin main -f",
    "git push -uf origin feature",
    "git -C repo push --force",
    "git push origin +main",
    "cd x && git push --force origin HEAD",
    // Variables assigned earlier in the line.
    "G=git; $G push --force",
    "export G=git && $G push -f",
    "G=git; \"$G\" push origin +main",
    "G=/usr/bin/git; ${G} push --force",
    "C='git push --force'; $C",
    "X=/; rm -rf $X",
    "D=/usr; rm -rf \"$D\"/*",
    "A=/; B=$A; rm -rf $B",
    "X=/tmp/x; false && X=/; rm -rf $X",
    "X=/tmp/x; if true; then X=/; fi; rm -rf $X",
    "X=/; f() { X=/tmp/x; }; rm -rf $X",
    "X=/; (X=/tmp/x); rm -rf $X",
    "X=/tmp/x; for d in a; do X=/; done; rm -rf $X",
    "X=/tmp/x; unset X; rm -rf /$X",
    "X=/; cat <<EOF\nX=/tmp/x\nEOF\nrm -rf $X",
    "X=/; false && eval X=/tmp/x; rm -rf $X",
    "cat <<EOF\ndon't\nEOF\nrm -rf /",
    "bash <<EOF\nrm -rf /\nEOF",
    "rm -rf ${TARGET:-/}",
    "X=$(echo /); rm -rf $X",
    "R=rm; $R -rf ~",
    "D=/dev/sda; echo x > $D",
    // Literal text piped into a shell.
    "echo 'git push --force' | bash",
    "printf 'rm -rf /\\n' | sh",
    "printf '%s\\n' 'rm -rf ~' | bash",
    "echo rm -rf / | sh -s",
    "echo -e 'ls\\nrm -rf /' | bash",
    "echo 'rm -rf ~' | cat | bash",
    "echo 'rm -rf /' | sudo bash",
    "bash <<< 'rm -rf /'",
    "echo / | xargs rm -rf",
    "(echo 'git push -f') | sh",
    // Git aliases.
    "git config alias.fp 'push --force' && git fp",
    "git config alias.fp 'push --force'",
    "git config --global alias.fp 'push -f origin main'",
    "git config --global alias.nuke '!rm -rf ~'",
    "git config alias.p push && git p --force",
    "git config alias.p push; git p origin :main",
    "git -c alias.fp='push -f' fp",
    "git config set --global alias.d 'push --delete origin'",
    "git config alias.x '!git push --mirror'",
    // Remote deletion and mirroring.
    "git push origin :main",
    "git push origin :refs/heads/main",
    "git push origin --delete main",
    "git push -d origin main",
    "git push --del origin main",
    "git push --mirror",
    "git push --mirror origin",
    "git push --prune origin 'refs/heads/*:refs/heads/*'",
    "git push origin -- :main",
    // `cd` to a root, then a relative recursive rm.
    "cd / && rm -rf *",
    "cd ~ && rm -rf .",
    "cd / ; rm -rf ./*",
    "cd $HOME && rm -rf ./*",
    "cd && rm -rf *",
    "cd /usr && rm -rf *",
    "cd / && cd usr && rm -rf *",
    "cd /tmp/x; cd /; rm -rf *",
    "cd / && cd /tmp && ls; rm -rf *",
    "cd / && (cd /tmp) && rm -rf *",
    "(cd / && rm -rf *)",
    "cd / && bash -c 'rm -rf *'",
    "cd /tmp && rm -rf ..",
    "cd / && find . -delete",
    "cd / && chmod -R 777 .",
    "pushd / && rm -rf *",
    "if cd /; then rm -rf *; fi",
    "cd -P / && rm -rf -- *",
    "eval 'cd /'; rm -rf *",
    "eval cd / && rm -rf *",
    "cd ~/.. && rm -rf *",
    // find from a root.
    "find / -delete",
    "find / -exec rm -rf {} +",
    "find ~ -delete",
    "find $HOME -name '*' -delete",
    "find / -name '*.log' -exec rm {} \\;",
    "find -L /etc -delete",
    "sudo find /usr -type f -exec sudo rm -f {} +",
    "find . -exec rm -rf / \\;",
    "find /tmp/../ -delete",
    // `..`, `.` and `//` in targets.
    "rm -rf /usr/../*",
    "rm -rf ~/../home",
    "rm -rf /tmp/../../",
    "rm -rf /./usr/",
    "rm -rf //usr//",
    "rm -rf /tmp/..",
    "rm -rf ~/..",
    "rm -rf ~/.*",
    "rm -rf /u*",
    "rm -rf /[a-z]*",
    "rm -rf $PWD/..",
    "rm -rf ..",
    "rm -rf ../*",
    "rm -rf ../..",
    // Literal command substitutions.
    "rm -rf $(echo /)",
    "rm -rf `echo /`",
    "rm -rf \"$(printf /)\"",
    "rm -rf $(echo $(echo /))",
    "rm -rf $(echo ~)",
    "rm -rf $(echo / /tmp/x)",
    "chmod -R 777 $(echo /etc)",
    // Quoting tricks.
    "$'\\x72m' -rf /",
    "bash -o pipefail -c 'rm -rf /'",
    "bash -c \"$(echo rm -rf /)\"",
    "S='rm -rf /'; sh -c \"$S\"",
    // Computed targets fail closed (issue 36): allowed before, refused now.
    "rm -rf ${OUT:-build}",
    "rm -rf \"${TMPDIR:-/tmp}/wright\"",
    "rm -rf ../sibling",
    "rm -rf $(mktemp -d)",
    "rm -rf \"$(git rev-parse --show-toplevel)/target\"",
];

const SAFE: &[&str] = &[
    "rm -rf ./build",
    "rm -rf build/",
    "rm -rf /tmp/x",
    "rm -r ~/project/target",
    "rm -rf $HOME/.cache/wright-test",
    "rm -f /tmp/file",
    "rm /",
    "rm -rf node_modules dist",
    "echo \"rm -rf /\"",
    "echo 'rm -rf /'",
    "echo '$(rm -rf /)'",
    "grep -r \"rm -rf /\" .",
    "git commit -m 'git push --force'",
    "git push",
    "git push origin main",
    "git push --force-with-lease",
    "git push --force-with-lease=main:abc origin main",
    "git push --force-if-includes --force-with-lease",
    "git fetch -f",
    "dd if=/dev/zero of=./disk.img bs=1M count=1",
    "dd if=/dev/sda of=backup.img",
    "ls > /dev/null 2>&1",
    "cargo test 2>/dev/null",
    "chmod -R 755 ./dist",
    "chmod 644 /etc/hosts",
    "chown -R me:me ./dir",
    "mkdir -p /tmp/mkfs-test",
    "echo mkfs",
    "f(){ echo hi; }; f",
    "find . -name '*.o' -delete",
    ":",
    "cat /dev/sda1.txt | head",
    "rm -rf build",
    "rm -rf ./target /tmp/x",
    "cd src && rm -rf gen",
    "G=git; $G push",
    "G=git; $G push --force-with-lease",
    "G=git; $G status && $G push origin main",
    "X=build; rm -rf $X",
    "X=/tmp/x; rm -rf $X/*",
    "X=/; X=/tmp/x; rm -rf $X",
    "P=$PATH; P=$P:/a; P=$P:/b; echo $P",
    "MSG='rm -rf /'; git commit -m \"$MSG\"",
    "FOO=/ cargo build",
    "echo 'git push' | bash",
    "echo 'ls -la' | sh",
    "echo 'rm -rf /' > notes.txt",
    "echo 'git push --force' | cat",
    "echo 'rm -rf /' | grep rm",
    "printf 'rm -rf build\\n' | sh",
    "printf '%s\\n' 'rm -rf ./x' | bash",
    "curl -fsSL https://example.com/install.sh | sh",
    "curl -fsSL https://example.com/install.sh | bash -s -- --yes",
    "bash <<< 'echo hi'",
    "echo build | xargs rm -rf",
    "git config alias.st status && git st",
    "git config alias.pl 'push --force-with-lease' && git pl",
    "git config --global alias.co checkout",
    "git config alias.cleanup '!rm -rf build'",
    "git config user.name 'push --force'",
    "git fp",
    "git push origin main:main",
    "git push origin :",
    "git push -u origin feature",
    "git push --dry-run origin main",
    "git push -o ci.skip origin main",
    "git push --tags",
    "git push --porcelain",
    "git branch -d old",
    "cd / && ls",
    "cd /tmp && rm -rf *",
    "cd ~/project && rm -rf .",
    "cd ~ && rm -rf .cache/x",
    "cd / && cd /tmp/x && rm -rf *",
    "cd target/debug && rm -rf ../*",
    "cd build && rm -rf ../dist",
    "(cd /tmp && ls) && rm -rf build",
    "cd /usr && ls; cd ~/p && rm -rf build",
    "find /tmp/x -delete",
    "find ~/proj -name '*.pyc' -delete",
    "find / -name passwd",
    "find / -name '*.rs' -exec grep -l foo {} +",
    "find . -type f -exec rm {} +",
    "find src -name '*.bak' -exec rm -f {} \\;",
    "rm -rf /tmp/../tmp/x",
    "rm -rf ~/../user/project",
    "rm -rf /usr/local/share/x",
    "rm -rf /*.tmp",
    "rm -rf ./..build",
    "rm -rf $(echo build)",
    "rm -rf `pwd`/build",
    "echo $(echo /)",
    "echo \"$(printf 'rm -rf /')\"",
    "bash -o pipefail -c 'cargo test'",
    "bash script.sh",
];

#[test]
fn dangerous_commands_are_blocked() {
    assert!(DANGEROUS.len() >= 30);
    let missed: Vec<&&str> = DANGEROUS
        .iter()
        .filter(|cmd| check_command(cmd).is_ok())
        .collect();
    assert!(missed.is_empty(), "should block: {missed:#?}");
}

#[test]
fn safe_look_alikes_are_allowed() {
    assert!(SAFE.len() >= 15);
    let refused: Vec<(&str, String)> = SAFE
        .iter()
        .filter_map(|cmd| check_command(cmd).err().map(|e| (*cmd, e)))
        .collect();
    assert!(refused.is_empty(), "should allow: {refused:#?}");
}

#[test]
fn reasons_name_the_problem() {
    assert_eq!(check_command("rm -rf /"), Err("recursive rm of /".into()));
    assert_eq!(check_command(":(){ :|:& };:"), Err("fork bomb".into()));
    assert!(
        check_command("git push -f")
            .unwrap_err()
            .contains("force-with-lease")
    );
}

#[test]
fn deep_nesting_is_refused() {
    let mut cmd = "ls".to_owned();
    for _ in 0..12 {
        cmd = format!("echo $({cmd})");
    }
    assert!(check_command(&cmd).is_err());
}

#[test]
fn new_reasons_name_the_problem() {
    let cases = [
        (
            "G=git; $G push --force",
            "git push --force (use --force-with-lease)",
        ),
        (
            "git config alias.fp 'push --force' && git fp",
            "git alias fp: git push --force (use --force-with-lease)",
        ),
        (
            "git push origin :main",
            "git push :main deletes a remote branch",
        ),
        (
            "git push --mirror",
            "git push --mirror overwrites and deletes remote refs",
        ),
        ("cd / && rm -rf *", "recursive rm of * (in /)"),
        ("cd ~ && rm -rf .", "recursive rm of . (in ~)"),
        ("find / -delete", "find deleting under /"),
        ("rm -rf /usr/../*", "recursive rm of /usr/../*"),
        ("rm -rf $(echo /)", "recursive rm of /"),
        ("printf 'rm -rf /\\n' | sh", "recursive rm of /"),
    ];
    for (cmd, why) in cases {
        assert_eq!(check_command(cmd), Err(why.to_owned()), "{cmd}");
    }
}

#[test]
fn normalizes_lexically() {
    let n = |p: &str| render(&normalize(p));
    assert_eq!(n("/usr/../*"), "/*");
    assert_eq!(n("//tmp/./x//"), "/tmp/x");
    assert_eq!(n("/tmp/../../.."), "/");
    assert_eq!(n("~/../home"), "~/../home");
    assert_eq!(n("$HOME/a/.."), "~");
    assert_eq!(n("a/../../b"), "../b");
    assert_eq!(render(&resolve("/usr", "../etc/./x")), "/etc/x");
    assert_eq!(render(&resolve("/tmp", "$PWD/..")), "/");
    assert_eq!(render(&resolve("/tmp", "~/x")), "~/x");
}

#[test]
fn globs_match_system_dirs() {
    assert!(glob_match(b"u*", b"usr"));
    assert!(glob_match(b"[a-c]?n", b"bin"));
    assert!(glob_match(b"*", b""));
    assert!(!glob_match(b"*.tmp", b"tmp"));
    assert!(!glob_match(b"[!b]in", b"bin"));
    assert!(glob_match(b"[", b"["));
}

#[test]
fn literal_output_of_echo_and_printf() {
    let s = |v: &[&str]| v.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
    assert_eq!(echo_output(&s(&["-n", "a", "b"])), vec!["a b\n"]);
    assert_eq!(echo_output(&s(&["a\\nb"])), vec!["a\\nb\n", "a\nb\n"]);
    assert_eq!(
        printf_output(&s(&["%s-%s\\n", "a", "b", "c"])).as_deref(),
        Some("a-b\nc-\n")
    );
    assert_eq!(
        printf_output(&s(&["%5s|%%|%b", "x", "y\\tz"])).as_deref(),
        Some("x|%|y\tz")
    );
    assert_eq!(printf_output(&s(&["-v", "x", "y"])), None);
}

#[test]
fn pathological_lines_are_bounded() {
    // Many values for one variable are fine; the newest are kept.
    let mut cmd: String = (0..40).map(|i| format!("X=/tmp/{i}; ")).collect();
    cmd.push_str("X=/; rm -rf $X");
    assert!(check_command(&cmd).is_err());
    // Values that keep doubling stop being remembered.
    let mut cmd = "X=ab".to_owned();
    for _ in 0..30 {
        cmd.push_str("; X=$X$X");
    }
    cmd.push_str("; echo $X");
    assert_eq!(check_command(&cmd), Ok(()));
    // Too many combinations is refused rather than guessed.
    let cmd: String = (0..8)
        .map(|v| format!("V{v}=a; true && V{v}=b; "))
        .collect::<String>()
        + "echo $V0 $V1 $V2 $V3 $V4 $V5 $V6 $V7";
    assert_eq!(
        check_command(&cmd),
        Err("too many possible variable values to check".into())
    );
    // Long lines stay linear.
    let words = "a ".repeat(20_000);
    assert_eq!(check_command(&format!("printf '%s%s' {words}")), Ok(()));
    assert!(check_command(&format!("{}ls", "eval ".repeat(5_000))).is_err());
    let subs = "$(echo a) ".repeat(2_000);
    assert_eq!(check_command(&format!("echo {subs}")), Ok(()));
}

/// Everyday command lines pass (their speed is a benchmark matter, not a test's).
#[test]
fn ordinary_command_lines_pass() {
    let cmds = [
        "cargo test -p wright-tools 2>&1 | tail -20",
        "rm -rf build && mkdir build && cd build && cmake .. && make -j8",
        "git status && git add -A && git commit -m 'fix: things' && git push",
        "find . -name '*.o' -delete",
        "X=1; for f in $(ls); do echo \"$f $X\"; done",
    ];
    for c in cmds {
        assert_eq!(check_command(c), Ok(()), "{c}");
    }
}

proptest::proptest! {
    #[test]
    fn never_panics_on_any_text(s in "\\PC{0,200}") {
        let _ = check_command(&s);
    }

    #[test]
    fn never_panics_on_shell_like_text(
        parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "rm", "-rf", "/", "~", "..", "*", "cd", "&&", "||", "|", ";", "\n", "(", ")",
                "{", "}", "$(", "`", "'", "\"", "$X", "X=/", "${X:-/}", "echo", "printf",
                "bash", "sh", "-c", "git", "push", "-f", ":main", "config", "alias.a", "a",
                "eval", "find", "-delete", "-exec", "\\;", "<<", "<<<", "EOF", "$'\\x", "\\",
                "if", "then", "fi", "for", "do", "done", "xargs", "%s", "\\n", "\\0",
            ]),
            0..40,
        )
    ) {
        let _ = check_command(&parts.join(" "));
        let _ = check_command(&parts.concat());
    }
}

/// Wrapper spellings a destructive payload is appended to.
const WRAPPER_PREFIXES: &[&str] = &[
    "sudo ",
    "sudo -u root ",
    "sudo --user=root ",
    "sudo -E -H ",
    "doas -u root ",
    "pkexec ",
    "runuser -u root -- ",
    "env ",
    "env -i ",
    "env FOO=1 ",
    "env -u X ",
    "env --chdir=/tmp ",
    "env - ",
    "nice ",
    "nice -n 5 ",
    "nice -5 ",
    "nice --adj=5 ",
    "ionice -c 3 ",
    "timeout 5 ",
    "timeout -s KILL 5 ",
    "timeout --kill-after=1 5 ",
    "timeout --sig=KILL 5 ",
    "stdbuf -oL ",
    "stdbuf -o L ",
    "nohup ",
    "setsid ",
    "setsid -f ",
    "command ",
    "command -p ",
    "builtin ",
    "exec ",
    "exec -a x ",
    "time ",
    "time -p ",
    "\\time -o x ",
    "/usr/bin/time -v ",
    "time --output=x ",
    "busybox ",
    "catchsegv ",
    "chroot / ",
    "taskset 1 ",
    "taskset -c 0 ",
    "chrt 1 ",
    "chrt -f 1 ",
    "prlimit --nofile=10 ",
    "prlimit -n ",
    "unshare -r ",
    "unshare --map-root-user ",
    "unshare --net ",
    "setpriv --no-new-privs ",
    "strace -f ",
    "strace -o /tmp/x ",
    "ltrace ",
    "valgrind ",
    "flock /tmp/l ",
    "flock -x /tmp/l ",
    "flock -w 5 /tmp/l ",
    "flock --timeout 5 /tmp/l ",
    "echo x | xargs ",
    "xargs ",
    "xargs -0 ",
    "xargs -n 1 ",
    "xargs --process-slot-var v ",
    "xargs --process-slot v ",
    "xargs -I{} ",
    "xargs -i ",
    "xargs -r -- ",
    "watch -x ",
    "sudo env nice ",
    "FOO=1 ",
    "cargo run -- ",
    "npx ",
    "unbuffer ",
    "firejail ",
    "bwrap --bind / / ",
    "parallel ",
    "ssh host ",
    "gdb --args ",
    "nice -n $N ",
    "sudo -u $U ",
    "systemd-run ",
    "sudo --bogus-option ",
    "env --bogus ",
    "if true; then ",
    "! ",
    "nice -- ",
    "sudo sudo ",
    "time nice timeout 3 ",
];

/// Wrapper spellings that run their argument as a shell script (`{}`).
const SCRIPT_TEMPLATES: &[&str] = &[
    "bash -c '{}'",
    "bash -o posix -c '{}'",
    "sh -ec '{}'",
    "bash --norc -c '{}'",
    "bash -O extglob -c '{}'",
    "watch '{}'",
    "watch -n 1 '{}'",
    "watch -- {}",
    "env -S'{}' true",
    "env -S '{}'",
    "env --split-string='{}'",
    "env -vS'{}'",
    "su -c '{}'",
    "su root -c '{}'",
    "flock /tmp/l -c '{}'",
    "flock -c '{}' /tmp/l",
    "flock --command '{}' /tmp/l",
    "script -c '{}'",
    "ssh host '{}'",
    "eval '{}'",
    "sudo sh -c '{}'",
    "sg grp -c '{}'",
    "parallel ::: '{}'",
    "echo '{}' | sh",
    "echo '{}' | sudo bash",
    "nohup sh -c '{}'",
];

/// Destructive payloads the guard refuses when written plainly.
const PAYLOADS: &[&str] = &[
    "rm -rf /",
    "rm -rf ~",
    "rm -fr /usr",
    "find / -delete",
    "mkfs.ext4 /dev/sda1",
    "dd if=/dev/zero of=/dev/sda",
    "chmod -R 777 /",
    "git push --force origin main",
];

#[test]
fn destructive_payloads_are_refused_behind_every_wrapper() {
    let mut missed = Vec::new();
    for p in PAYLOADS {
        assert!(check_command(p).is_err(), "payload itself: {p}");
        for w in WRAPPER_PREFIXES {
            let cmd = format!("{w}{p}");
            if check_command(&cmd).is_ok() {
                missed.push(cmd);
            }
        }
        for t in SCRIPT_TEMPLATES {
            let cmd = t.replace("{}", p);
            if check_command(&cmd).is_ok() {
                missed.push(cmd);
            }
        }
    }
    assert!(missed.is_empty(), "should block: {missed:#?}");
}

/// Long option words and deeply nested scripts cost bounded work: a long
/// `-S` word is checked once, not once per later character, and a line
/// nesting scripts past the work budget is refused, not checked for minutes.
#[test]
fn intricate_lines_cost_bounded_work() {
    let long = format!("env \"-S{}\"", " a".repeat(1500));
    assert_eq!(check_command(&long), Ok(()));
    // 300 scripts each nesting the rest lex 90 times the line's length:
    // past the budget, so refused with a way out instead of checked.
    let chained = format!("env \"-S{}\"", "sh -c ".repeat(300));
    assert!(check_command(&chained).is_err_and(|why| why.contains("split it")));
    let chained = format!("env \"-S{}\"", "sh -c ".repeat(20));
    assert_eq!(check_command(&chained), Ok(()));
    let hidden = format!("env \"-S{}sh -c 'rm -rf /'\"", "sh -c ".repeat(300));
    assert!(check_command(&hidden).is_err());
    assert!(check_command("env -vS'rm -rf /'").is_err());
    assert!(check_command("env '-S rm -rf /'").is_err());
}

/// Found by fuzzing: 18,000 nested checks of a 127-byte line took 1.4 s.
#[test]
fn many_short_nested_scripts_are_bounded_too() {
    let line = b"bash - \x00'\xe5ch\xd2\xd2\xd2\xd2\xd2\xd2\x92\xd2\xd2\xd2\xd2\xd2\xd2.\x99{{C{$(bash - \x00'\xe5ch\xd2~\xd2\xd2\xd2\xd2\xd2\xd2\xd2\xd2{\x13\x13\x13{C{$(bash - \x00'\xe5ch\xd2\xd2\xd2\xd2\xd2\xd2\xd2\xd2\xd2\xd2.\x99{\xa7C{$\xd2\xd2.\xd1f\x84\x84\xbc\x84\xe4(bash - \x00'\xe5ch\xd2~\xd2\xd2pnpm\xd2)'";
    assert_eq!(line.len(), 127);
    assert!(check_command(&String::from_utf8_lossy(line)).is_err());
}

#[test]
fn a_remembered_verdict_is_the_verdict_for_that_text_only() {
    for _ in 0..3 {
        assert!(check_command("rm -rf /").is_err());
        assert!(check_command("rm -rf ./build").is_ok());
        assert!(check_command("rm -rf / ").is_err());
    }
    for i in 0..10 {
        assert!(check_command(&format!("echo {i}")).is_ok());
    }
    assert!(check_command("rm -rf /").is_err());
}

/// Every command refused, with the reasons of the ones that got through.
fn all_refused(cases: &[&str]) {
    let missed: Vec<&&str> = cases
        .iter()
        .filter(|cmd| check_command(cmd).is_ok())
        .collect();
    assert!(missed.is_empty(), "should block: {missed:#?}");
}

// Issue 36, one test per class of computed target that got through.

#[test]
fn user_and_directory_tildes_are_refused() {
    all_refused(&[
        "rm -rf ~root",
        "rm -rf ~root/",
        "rm -rf ~+",
        "rm -rf ~-",
        "rm -rf ~+/*",
        "chmod -R 777 ~+",
        "mv ~- /tmp/x",
        "find ~root -delete",
    ]);
}

#[test]
fn brace_expansion_into_system_directories_or_home_is_refused() {
    all_refused(&[
        "rm -rf /{etc,usr}",
        "rm -rf ~/{,.}*",
        "rm -rf /{tmp/x,}",
        "rm -rf /{e,}tc",
        "rm -rf {/,build}",
        "rm -rf /{a..z}*",
        "chown -R nobody /{usr,opt}",
        "rm -rf x{1..1000}",
    ]);
    assert_eq!(
        braces("/{etc,usr}/{a,b}").unwrap(),
        ["/etc/a", "/etc/b", "/usr/a", "/usr/b"]
    );
    assert_eq!(braces("${HOME}").unwrap(), ["${HOME}"]);
    assert_eq!(braces("{1..3}").unwrap(), ["1", "2", "3"]);
    assert_eq!(braces("{x}").unwrap(), ["{x}"]);
}

#[test]
fn substitutions_of_the_working_directory_or_its_parent_are_refused() {
    all_refused(&[
        "rm -rf $(pwd)",
        "rm -rf \"$(dirname $PWD)\"",
        "rm -rf `pwd`",
        "rm -rf \"`pwd`\"/..",
        "rm -rf $(pwd)/..",
        "rm -rf $(cd ..; pwd)",
        "rm -rf \"$PWD\"",
        "rm -rf ${PWD}/..",
        "pwd | xargs rm -rf",
    ]);
}

#[test]
fn a_glob_delete_after_cd_to_a_computed_directory_is_refused() {
    all_refused(&[
        "cd $(mktemp -d)/.. && rm -rf *",
        "cd \"$X\" && rm -rf *",
        "cd - && rm -rf *",
        "cd ~root && rm -rf *",
        "cd $OLDPWD && rm -rf .",
        "pushd /tmp && popd && rm -rf *",
        "cd /tmp; pushd; rm -rf *",
        "source ./env.sh; rm -rf *",
        "cd \"$(git rev-parse --show-toplevel)/..\" && rm -rf ./*",
        "cd `echo $D` && find . -delete",
    ]);
}

#[test]
fn parameter_expansions_of_home_are_refused() {
    all_refused(&[
        "rm -rf ${HOME}",
        "rm -rf ${HOME:-/}",
        "rm -rf ${HOME%/*}",
        "rm -rf ${HOME#/}",
        "rm -rf \"${HOME}/\"",
        "rm -rf ${HOME/x/y}",
        "HOME=/; rm -rf ~",
        "HOME=/etc && cd && rm -rf *",
    ]);
}

#[test]
fn values_assigned_by_read_and_printf_are_unknown() {
    all_refused(&[
        "read X; rm -rf $X",
        "X=build; read X; rm -rf $X",
        "X=build; read -r -p 'dir? ' X; rm -rf \"$X\"",
        "IFS= read -r X <<< /; rm -rf $X",
        "X=build; printf -v X /; rm -rf $X",
        "X=build; printf -vX '%s' /; rm -rf \"$X\"",
        "echo / | while read d; do rm -rf $d; done",
        "X=build; mapfile -t X < list; rm -rf $X",
        "X=build; read -a X; rm -rf $X",
        "REPLY=build; read; rm -rf $REPLY",
    ]);
}

#[test]
fn loop_variables_are_followed_or_unknown() {
    all_refused(&[
        "for d in / ~; do rm -rf $d; done",
        "d=build; for d in /; do rm -rf $d; done",
        "for d in $(ls /); do rm -rf /$d; done",
        "select d in / ~; do rm -rf $d; done",
        "for d; do rm -rf $d; done",
        "for d in a b c d e f; do rm -rf ~/$d/..; done",
        "for d in /usr /etc\ndo\n  chmod -R 777 $d\ndone",
    ]);
    assert_eq!(
        check_command("for d in build dist; do rm -rf $d; done"),
        Ok(())
    );
}

#[test]
fn oldpwd_is_unknown() {
    all_refused(&[
        "rm -rf $OLDPWD",
        "rm -rf \"$OLDPWD\"/*",
        "cd $OLDPWD && rm -rf ./*",
        "mv \"$OLDPWD\" /tmp/x",
    ]);
}

#[test]
fn deleting_through_a_link_the_line_creates_is_refused() {
    all_refused(&[
        "ln -s / x && rm -rf x/",
        "ln -s / x; rm -rf x/*",
        "ln -sf /etc x && chmod -R 777 x",
        "ln -s ~ h && rm -rf h/",
        "ln -s / x && mv x y",
        "ln -s / \"$X\" && rm -rf build/",
        "bash -c 'ln -s / x' && rm -rf x/",
        "ln -s / /tmp/l && rm -rf /tmp/l/",
        "ln -s -t links / && rm -rf links/",
        "ln -s /dev/sda d && cat img > d",
        "cd build && ln -s / x && cd .. && rm -rf build/x/",
    ]);
    // Removing the link itself removes only the link.
    assert_eq!(check_command("ln -s / x && rm -rf x"), Ok(()));
}

#[test]
fn writes_to_disk_devices_by_any_program_are_refused() {
    all_refused(&[
        "tee /dev/sda < img",
        "cat img | tee /dev/sda",
        "cat img | sudo tee -a /dev/nvme0n1",
        "cp x /dev/nvme0n1",
        "pv img -o /dev/sda",
        "sg_format --format /dev/sg0",
        "blkdiscard /dev/nvme0n1",
        "hdparm --security-erase x /dev/sda",
        "cat img > /dev//sda",
        "cat img > /dev/../dev/sda",
        "cat img > /dev/./vdb",
        "dd if=img of=/dev/loop0",
        "dd if=img of=/dev//sda",
        "cat x > /dev/disk/by-id/foo",
        "echo x > /dev/md0",
        "cat x > /dev/xvda",
        "cat x > /dev/mmcblk0p1",
        "cat x > /dev/mapper/root",
        "D=sda; cat img > /dev/$D",
        "cat img > /dev/sd?",
        "truncate -s 0 /dev/sda",
        "python3 write.py --device=/dev/sda",
        "cargo run -- /dev/sda",
        "exec 3>/dev/sda",
        "mkswap /dev/sda2",
        "mkswap swapfile",
        "mke2fs /dev/sdb1",
        "mke2fs -t ext4 disk.img",
        "mkfs.xfs ./img",
        "mkdosfs /dev/sdc1",
        "bash -c 'cat img > /dev/sda'",
        "sudo cp img /dev/sda",
    ]);
}

#[test]
fn git_transports_that_force_or_delete_are_refused() {
    all_refused(&[
        "git send-pack --force origin main",
        "git send-pack --mirror https://example.com/r.git",
        "git send-pack --all https://example.com/r.git",
        "git send-pack https://example.com/r.git +main",
        "git send-pack https://example.com/r.git :main",
        "git http-push --force https://example.com/r.git main",
        "git http-push -D https://example.com/r.git main",
        "git -c remote.origin.mirror=true push",
        "git -c remote.origin.mirror push",
        "git -c Remote.Origin.Mirror=yes push origin",
        "git -c remote.origin.push=+refs/heads/*:refs/heads/* push",
        "git -c remote.origin.push=:main push",
        "git -c push.x=1 push",
        "git --config-env=remote.origin.mirror=M push",
        "git --config-env remote.origin.mirror=M push",
        "git config remote.origin.mirror true",
        "git config remote.origin.push '+refs/*:refs/*'",
        "git remote add --mirror=push backup https://example.com/r.git",
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.mirror GIT_CONFIG_VALUE_0=true git push",
        "GIT_CONFIG_PARAMETERS=\"'remote.origin.mirror'='true'\" git push",
        "env GIT_CONFIG_KEY_0=remote.origin.push GIT_CONFIG_VALUE_0=+main git push",
        "sudo git send-pack --force origin main",
        "bash -c 'git send-pack --mirror url'",
    ]);
}

#[test]
fn rsync_deleting_into_home_or_unknown_places_is_refused() {
    all_refused(&[
        "rsync -a --delete src/ ~/",
        "rsync -a --delete x/ $HOME",
        "rsync -a --delete-after x/ \"$DEST\"",
        "rsync -a --delete x/ /",
        "rsync -a --del x/ /etc/",
        "rsync -a --remove-source-files ~/ /tmp/x",
        "rsync -av --delete-excluded ./ ../proj",
    ]);
}

#[test]
fn moving_home_or_system_directories_away_is_refused() {
    all_refused(&[
        "mv ~ /tmp/x",
        "mv \"$HOME\" /tmp/x",
        "mv $HOME/ /tmp/x",
        "mv /etc /tmp/etc",
        "mv -t /tmp ~",
        "mv --target-directory=/tmp ~",
        "mv x \"$Y\"",
        "mv \"$X\" y",
        "mv -- ~ /tmp/x",
        "sudo mv /usr /usr.old",
    ]);
}

#[test]
fn other_unknown_targets_are_refused_with_the_way_out() {
    all_refused(&[
        "find $D -delete",
        "chmod -R 777 $D",
        "chown -R me \"$D\"",
        "chmod -R -w \"$D\"",
        "setfacl -R -m u:x:rwx $D",
        "setfacl -Rm u:x:rwx /",
        "ls | xargs rm -rf",
        "find . -print0 | xargs -0 rm -rf",
        "rm -rf ../proj",
        "rm -rf \"$X\"/build",
    ]);
    let why = check_command("rm -r $TMPDIR/foo").unwrap_err();
    assert!(why.contains("name the path literally"), "{why}");
    assert!(why.starts_with("recursive rm of $TMPDIR/foo"), "{why}");
    let why = check_command("rm -rf $(pwd)/..").unwrap_err();
    assert!(!why.contains('\u{f0000}'), "markers are not shown: {why}");
}

/// Benign commands the fail-closed rule must not refuse.
const BENIGN: &[&str] = &[
    "rm -rf build target node_modules ./dist \"src/gen\"",
    "rm -rf /tmp/xyz",
    "rm -rf /tmp/x /tmp/y/z",
    "rm -rf `pwd`/build",
    "rm -rf $(pwd)/target",
    "rm -rf \"$PWD/build\"",
    "rm -rf .",
    "for d in build dist; do rm -rf $d; done",
    "for f in *.o; do rm -f $f; done",
    "for f in $(ls); do echo $f; done",
    "rm -f $X",
    "rm $TMPDIR/x",
    "mv a.txt b.txt",
    "mv src/old.rs src/new.rs",
    "mv build/x /tmp/y",
    "mv notes.txt ~/Documents/",
    "mv -f a b c dir/",
    "chmod -R 755 .",
    "chmod -R u+w build",
    "chown -R $USER:$USER build",
    "chmod +x $X",
    "rsync -a src/ dst/",
    "rsync -a --delete build/ dist/",
    "rsync -a --delete build/ host:/srv/www",
    "rsync -a --delete build/ rsync://host/mod",
    "ln -s ../shared shared && ls shared",
    "ln -s target/debug/app app && rm app",
    "ln -s / x && rm -rf x",
    "cat /dev/sda > disk.img",
    "lsblk /dev/sda",
    "blkid /dev/sda1",
    "dd if=/dev/sda of=backup.img",
    "ls > /dev/null",
    "echo hi > /dev/stderr",
    "cargo test 2>/dev/null >/dev/tty",
    "git push origin main",
    "git push --force-with-lease",
    "git -c push.autoSetupRemote=true push",
    "git -c push.default=current push",
    "git config push.default current",
    "git config remote.origin.url https://example.com/r.git",
    "git send-pack https://example.com/r.git main",
    "git remote add origin https://example.com/r.git",
    "git -c user.name=x commit -m msg",
    "cd build && rm -rf *",
    "cd src/gen && rm -rf ../gen2",
    "X=$(mktemp -d); echo $X",
    "find . -name '*.pyc' -delete",
    "find build -delete",
    "find . -name node_modules -prune -exec rm -rf {} +",
    "rm -rf ~/.cache/pip",
    "rm -rf $HOME/.cache/x",
    "read -r X; echo $X",
    "printf -v X '%s' a; echo $X",
    "mkdir -p /tmp/mkfs-test",
    "echo $OLDPWD",
    "cd - && ls",
    "cp -r src /tmp/backup",
    "git clean -fdx",
    "cargo clean",
    "echo 'rm -rf $(pwd)'",
    "grep -r 'mv ~' .",
    "cd \"$X\" && ls",
    "cd $(git rev-parse --show-toplevel) && cargo build",
    "X=build; rm -rf \"$X\"",
    "ls | xargs rm -f",
    "echo build | xargs rm -rf",
];

#[test]
fn benign_commands_stay_allowed() {
    let refused: Vec<(&str, String)> = BENIGN
        .iter()
        .filter_map(|cmd| check_command(cmd).err().map(|e| (*cmd, e)))
        .collect();
    assert!(refused.is_empty(), "should allow: {refused:#?}");
}

/// Destructive verbs, `{t}` their target.
const VERBS: &[&str] = &[
    "rm -rf {t}",
    "rm -r {t}",
    "rm --recursive -f {t}",
    "find {t} -delete",
    "find {t} -exec rm -rf {} +",
    "chmod -R 777 {t}",
    "chown -R nobody {t}",
    "chgrp -R users {t}",
    "setfacl -R -m u:x:rwx {t}",
    "rsync -a --delete ./e/ {t}",
    "mv {t} /tmp/gone",
];

/// Computed targets: (setup before the verb, target, text after it).
const FORMS: &[(&str, &str, &str)] = &[
    ("", "$TMPDIR/foo", ""),
    ("", "\"$X\"", ""),
    ("", "${HOME%/*}", ""),
    ("", "${HOME:-/}", ""),
    ("", "$(pwd)/..", ""),
    ("", "\"$(dirname $PWD)\"", ""),
    ("", "`pwd`/..", ""),
    ("", "~root", ""),
    ("", "~+", ""),
    ("", "~-", ""),
    ("", "/{etc,usr}", ""),
    ("", "~/{,.}*", ""),
    ("", "$OLDPWD", ""),
    ("", "$(echo $Y)", ""),
    ("", "\"$PWD\"", ""),
    ("", "../proj", ""),
    ("read -r X; ", "$X", ""),
    ("X=build; printf -v X /; ", "$X", ""),
    ("X=build; read X; ", "\"$X\"", ""),
    ("for d in / ~; do ", "$d", "; done"),
    ("d=build; for d in $(ls /); do ", "/$d", "; done"),
    ("ln -s / l && ", "l/", ""),
    ("cd \"$X\" && ", "*", ""),
    ("cd $(mktemp -d)/.. && ", "*", ""),
    ("cd - && ", "./*", ""),
    ("HOME=/; ", "~", ""),
];

/// Wrappers and nestings, `{}` the command.
const NESTINGS: &[&str] = &[
    "{}",
    "sudo {}",
    "env {}",
    "env FOO=1 nice -n 5 {}",
    "bash -c '{}'",
    "sh -c \"{}\"",
    "echo $({})",
    "echo `{}`",
    "ls; {}",
    "true && {}",
    "false || {}",
    "ls | {}",
    "({})",
    "{ {}; }",
    "if true; then {}; fi",
    "eval '{}'",
    "timeout 5 {}",
];

/// Every verb × computed form × nesting is refused. Inside double quotes
/// and backticks the command is escaped as a user would write it; no form
/// has a single quote, so single-quoted nestings take it as it is.
#[test]
fn generated_computed_targets_are_refused_in_every_nesting() {
    let mut missed = Vec::new();
    let mut total = 0;
    for verb in VERBS {
        for (pre, target, post) in FORMS {
            let cmd = format!("{pre}{}{post}", verb.replace("{t}", target));
            for nest in NESTINGS {
                let inner = if nest.contains('"') {
                    cmd.replace('\\', "\\\\")
                        .replace('"', "\\\"")
                        .replace('$', "\\$")
                        .replace('`', "\\`")
                } else if nest.contains('`') {
                    // Backticks nest only escaped.
                    cmd.replace('`', "\\`")
                } else {
                    cmd.clone()
                };
                let line = nest.replacen("{}", &inner, 1);
                total += 1;
                if check_command(&line).is_ok() {
                    missed.push(line);
                }
            }
        }
    }
    assert!(total > 4000, "{total}");
    assert!(
        missed.is_empty(),
        "{} of {total} got through: {missed:#?}",
        missed.len()
    );
}

/// Every disk-writing program × device spelling × nesting is refused.
#[test]
fn generated_device_writes_are_refused_in_every_nesting() {
    let writers = [
        "tee {d} < img",
        "cp img {d}",
        "cat img > {d}",
        "dd if=img of={d}",
        "pv img > {d}",
        "blkdiscard {d}",
        "wipefs -a {d}",
        "mkswap {d}",
        "mke2fs {d}",
        "sg_dd if=img of={d}",
        "hdparm -z {d}",
    ];
    let devices = [
        "/dev/sda",
        "/dev/nvme0n1",
        "/dev/vdb",
        "/dev/xvda1",
        "/dev/mmcblk0",
        "/dev/disk/by-id/x",
        "/dev/mapper/root",
        "/dev/loop0",
        "/dev/md127",
        "/dev//sda",
        "/dev/../dev/sda",
    ];
    let mut missed = Vec::new();
    for w in writers {
        for d in devices {
            let cmd = w.replace("{d}", d);
            for nest in [
                "{}",
                "sudo {}",
                "bash -c '{}'",
                "echo $({})",
                "ls && {}",
                "env {}",
            ] {
                let line = nest.replacen("{}", &cmd, 1);
                if check_command(&line).is_ok() {
                    missed.push(line);
                }
            }
        }
    }
    assert!(missed.is_empty(), "should block: {missed:#?}");
}
