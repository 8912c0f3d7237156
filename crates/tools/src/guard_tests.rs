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
];

#[test]
fn dangerous_commands_are_blocked() {
    assert!(DANGEROUS.len() >= 30);
    for cmd in DANGEROUS {
        assert!(check_command(cmd).is_err(), "should block: {cmd}");
    }
}

#[test]
fn safe_look_alikes_are_allowed() {
    assert!(SAFE.len() >= 15);
    for cmd in SAFE {
        assert_eq!(check_command(cmd), Ok(()), "should allow: {cmd}");
    }
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
