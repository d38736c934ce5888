"""Localised tool messages and their English originals, so a paste from a Chinese locale finds
the entry written in English.

git, PostgreSQL (server and libpq) and the C library print translated messages under a
zh_CN locale. The table holds the messages people paste most, as those tools' catalogs
translate them; `{1}` stands for the first captured group. Matching text adds the English
sentence to the lookup; nothing here is shown to readers.
"""

import re

_Q = r"['\"‘“]?([^'\"’”\s]+)['\"’”]?"

_TABLE: list[tuple[str, str]] = [
    # git
    (r"不是 ?git 仓库", "fatal: not a git repository (or any of the parent directories): .git"),
    (r"拒绝合并无关的历史", "fatal: refusing to merge unrelated histories"),
    (r"无法推送一些引用到|推送一些引用到 .* 失败", "error: failed to push some refs to"),
    (
        r"更新被拒绝，因为您当前分支的最新提交落后于",
        "Updates were rejected because the tip of your current branch is behind its remote counterpart",
    ),
    (
        r"更新被拒绝，因为远程仓库包含您本地尚不存在的提交",
        "Updates were rejected because the remote contains work that you do not have locally",
    ),
    (r"无法读取远程仓库", "fatal: Could not read from remote repository."),
    (r"请确认您有正确的访问权限并且仓库存在", "Please make sure you have the correct access rights"),
    (rf"远程 {_Q} 已经存在", "error: remote {1} already exists."),
    (rf"源引用规格 {_Q} 没有匹配", "error: src refspec {1} does not match any"),
    (
        r"您对下列文件的本地修改将被合并操作覆盖",
        "error: Your local changes to the following files would be overwritten by merge",
    ),
    (
        r"您对下列文件的本地修改将被检出操作覆盖",
        "error: Your local changes to the following files would be overwritten by checkout",
    ),
    (
        r"自动合并失败，修正冲突然后提交修正的结果",
        "Automatic merge failed; fix conflicts and then commit the result.",
    ),
    (r"冲突（内容）：合并冲突于", "CONFLICT (content): Merge conflict in"),
    (
        rf"路径规格 {_Q} 未匹配任何 ?git ?已知文件",
        "error: pathspec '{1}' did not match any file(s) known to git",
    ),
    (r"无法访问 ", "fatal: unable to access"),
    (r"鉴权失败|认证失败 ?for", "fatal: Authentication failed for"),
    (r"分离头指针", "You are in 'detached HEAD' state."),
    (r"出现了偏离", "Your branch and 'origin' have diverged"),
    (r"需要指定如何调和偏离的分支", "fatal: Need to specify how to reconcile divergent branches."),
    (r"无法锁定引用", "error: cannot lock ref"),
    (r"请告诉我您是谁", "Author identity unknown *** Please tell me who you are."),
    (r"无法自动探测邮件地址", "fatal: unable to auto-detect email address"),
    (
        r"目标路径 .* 已经存在，并且不是一个空目录",
        "fatal: destination path already exists and is not an empty directory.",
    ),
    (r"仓库 .* 未找到", "remote: Repository not found. fatal: repository not found"),
    (r"您尚未结束您的合并", "fatal: You have not concluded your merge (MERGE_HEAD exists)."),
    # PostgreSQL server and libpq
    (rf"用户 {_Q} Password 认证失败", 'FATAL: password authentication failed for user "{1}"'),
    (r"对不起, ?已经有太多的客户", "FATAL: sorry, too many clients already"),
    (
        r"保留剩下的连接槽给非复制超级用户连接",
        "FATAL: remaining connection slots are reserved for non-replication superuser connections",
    ),
    (rf"重复键违反唯一约束 ?{_Q}", 'ERROR: duplicate key value violates unique constraint "{1}"'),
    (rf"关系 {_Q} 不存在", 'ERROR: relation "{1}" does not exist'),
    (rf"字段 {_Q} 不存在", 'ERROR: column "{1}" does not exist'),
    (rf"数据库 {_Q} 不存在", 'FATAL: database "{1}" does not exist'),
    (rf"角色 {_Q} 不存在", 'FATAL: role "{1}" does not exist'),
    (r"检测到死锁", "ERROR: deadlock detected"),
    (rf"语法错误 在 {_Q} 或附近的", 'ERROR: syntax error at or near "{1}"'),
    (rf"在字段 {_Q} 中空值违反了非空约束", 'ERROR: null value in column "{1}" violates not-null constraint'),
    (
        rf"插入或更新表 {_Q} 违反外键约束",
        'ERROR: insert or update on table "{1}" violates foreign key constraint',
    ),
    (r"对(?:表|关系) ?\S+ ?权限不够", "ERROR: permission denied for table"),
    (r"对模式 ?\S+ ?权限不够", "ERROR: permission denied for schema"),
    (r"无法联?[接连]接?到服务器", "could not connect to server: Connection refused"),
    (
        r"服务器是否在主机.*上运行",
        "Is the server running on host and accepting TCP/IP connections on port 5432?",
    ),
    (r"数据库系统启动中", "FATAL: the database system is starting up"),
    (r"由于语句执行超时", "ERROR: canceling statement due to statement timeout"),
    (r"由于同步更新而无法串行访问", "ERROR: could not serialize access due to concurrent update"),
    (
        r"当前事务被终止",
        "ERROR: current transaction is aborted, commands ignored until end of transaction block",
    ),
    # the C library (strerror) and the shell
    (r"没有那个文件或目录", "No such file or directory"),
    (r"权限不够", "Permission denied"),
    (r"设备上没有空间", "No space left on device"),
    (r"地址已在使用", "Address already in use"),
    (r"拒绝连接", "Connection refused"),
    (r"连接超时", "Connection timed out"),
    (r"未找到命令", "command not found"),
    (r"段错误", "Segmentation fault (core dumped)"),
    (r"打开的文件过多", "Too many open files"),
    (r"无法分配内存", "Cannot allocate memory"),
    (r"网络不可达", "Network is unreachable"),
    (r"未知的名称或服务", "Name or service not known"),
    (r"不允许的操作", "Operation not permitted"),
    (r"只读文件系统", "Read-only file system"),
    (r"断开的管道", "Broken pipe"),
]
_COMPILED = [(re.compile(pattern), english) for pattern, english in _TABLE]
_CJK = re.compile(r"[\u3400-\u9fff]")


def english_equivalents(text: str) -> list[str]:
    """English originals of the localised messages in `text`, in the order of the table."""
    if not _CJK.search(text):
        return []
    found: list[str] = []
    for pattern, english in _COMPILED:
        match = pattern.search(text)
        if match:
            group = match.group(1) if match.groups() else ""
            found.append(english.replace("{1}", group or ""))
    return found
