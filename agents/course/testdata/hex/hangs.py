import time

import STcpClient_1 as STcpClient

import common

calls = 0


def Getstep(mapStat, gameStat):
    global calls
    calls += 1
    # Hangs on its second move, asleep: the verdict is the wall clock's,
    # and a spinning script would only take a core from the tests beside it.
    while calls == 2:
        time.sleep(1)
    return common.pick(mapStat)


while True:
    (end_program, id_package, mapStat, gameStat) = STcpClient.GetBoard()
    if end_program:
        break
    STcpClient.SendStep(id_package, Getstep(mapStat, gameStat))
